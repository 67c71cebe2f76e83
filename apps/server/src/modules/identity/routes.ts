import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Hex } from 'viem';
import type { Config } from '../../config.ts';
import {
  auditActor,
  currentUser,
  OPERATOR_SECURITY,
  type OperatorGuard,
  readToken,
} from '../../http/auth.ts';
import { epochMsField, idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { readUploadedFile } from '../../http/uploads.ts';
import { auditView } from '../operators/index.ts';
import {
  type ClientInfo,
  CODE_PURPOSES,
  type CodePurpose,
  type IdentityService,
  type StoredImage,
} from './service.ts';

/** Code requests cost a message each: few per client per minute. */
const CODE_RATE_LIMIT = { rateLimit: { max: 5, timeWindow: '1 minute' } };
/** Every route that takes a password, a code or a signature. */
const AUTH_RATE_LIMIT = { rateLimit: { max: 20, timeWindow: '1 minute' } };

const TOKEN = [{ token: [] }];
const ADMIN = OPERATOR_SECURITY;

const text = (maxLength: number, description?: string) => ({
  type: 'string',
  maxLength,
  ...(description ? { description } : {}),
});
const account = text(254, 'An email, or an 11-digit mainland-style phone number');
const areaCode = text(6, 'Phone area code, digits only (default 86); ignored for an email');
const code = text(6, 'The 6-digit code from /user/getCode');
const password = text(64, '6-20 letters and digits, containing both');
const purpose = {
  type: 'string',
  enum: [...CODE_PURPOSES],
  description:
    'register: a new account; reset: forgotten password; bind: a new email/phone; fund: change the fund password',
};
const device = text(16, 'Client kind, e.g. "web"');

interface AccountBody {
  account: string;
  areaCode?: string;
}

export interface IdentityRouteOptions {
  service: IdentityService;
  requireUser: preHandlerAsyncHookHandler;
  config: Config;
  operatorGuard: OperatorGuard;
}

/** The identity paths of spec §7 (User), the added register/login/SIWE paths, uploads and operator paths. */
export function registerIdentityRoutes(http: FastifyInstance, options: IdentityRouteOptions): void {
  registerCodeRoutes(http, options);
  registerAccountRoutes(http, options);
  registerWalletRoutes(http, options);
  registerProfileRoutes(http, options);
  registerUploadRoutes(http, options);
  registerOperatorRoutes(http, options);
}

function registerCodeRoutes(http: FastifyInstance, { service }: IdentityRouteOptions): void {
  http.get<{ Querystring: AccountBody & { purpose: CodePurpose } }>(
    '/user/getCode',
    {
      config: CODE_RATE_LIMIT,
      schema: {
        summary:
          'Send a 6-digit verification code (valid 10 min, single use, resend after 60 s). In demo mode without SMTP (or SMS) nothing is sent: the answer carries the code as data.demoCode',
        tags: ['identity'],
        querystring: {
          type: 'object',
          required: ['account', 'purpose'],
          properties: { account, areaCode, purpose },
        },
      },
    },
    async (request) => {
      // Optional: a signed-in owner may see a demo code for their own account (service.sendCode).
      const token = readToken(request);
      const requester = token ? await service.resolve(token) : null;
      const sent = await service.sendCode(request.query, request.locale, requester?.id ?? null);
      return sent.demoCode === undefined
        ? ok(sent, 'identity.codeSent')
        : ok(sent, 'identity.demoCodeShown', { code: sent.demoCode });
    },
  );

  http.post<{ Body: AccountBody & { purpose: CodePurpose; code: string } }>(
    '/member/codeVerification',
    {
      config: AUTH_RATE_LIMIT,
      schema: {
        summary: 'Check a code without using it up (a wrong code counts one of its 5 tries)',
        tags: ['identity'],
        body: {
          type: 'object',
          required: ['account', 'purpose', 'code'],
          properties: { account, areaCode, purpose, code },
        },
      },
    },
    async (request) => {
      await service.checkCode(request.body);
      return ok(null);
    },
  );
}

function registerAccountRoutes(http: FastifyInstance, { service }: IdentityRouteOptions): void {
  http.post<{
    Body: AccountBody & {
      code: string;
      password: string;
      confirmPassword: string;
      invitationCode?: string;
      agreed: boolean;
      device?: string;
    };
  }>(
    '/member/register',
    {
      config: AUTH_RATE_LIMIT,
      schema: {
        summary: 'Register by email or phone with a `register` code; answers data.member and data.token',
        tags: ['identity'],
        body: {
          type: 'object',
          required: ['account', 'code', 'password', 'confirmPassword', 'agreed'],
          properties: {
            account,
            areaCode,
            code,
            password,
            confirmPassword: password,
            invitationCode: text(16, "The inviter's invitation code (optional)"),
            agreed: { type: 'boolean', description: 'The terms were agreed' },
            device,
          },
        },
      },
    },
    async (request) => ok(await service.register(request.body, clientOf(request)), 'identity.registered'),
  );

  http.post<{ Body: AccountBody & { password: string; device?: string } }>(
    '/member/login',
    {
      config: AUTH_RATE_LIMIT,
      schema: {
        summary: 'Log in with email or phone and password; 5 failures in 15 min lock the account for 15 min',
        tags: ['identity'],
        body: {
          type: 'object',
          required: ['account', 'password'],
          properties: { account, areaCode, password, device },
        },
      },
    },
    async (request) => ok(await service.login(request.body, clientOf(request)), 'identity.loggedIn'),
  );

  const resetBody = (field: 'phone' | 'email') => ({
    type: 'object',
    required: [field, 'code', 'password', 'confirmPassword'],
    properties: {
      [field]: field === 'phone' ? text(11, '11-digit phone number') : text(254, 'Email'),
      ...(field === 'phone' ? { areaCode } : {}),
      code,
      password,
      confirmPassword: password,
    },
  });
  interface ResetBody {
    phone?: string;
    email?: string;
    areaCode?: string;
    code: string;
    password: string;
    confirmPassword: string;
  }
  for (const [url, field] of [
    ['/member/forgetByTel', 'phone'],
    ['/member/forgetByEmail', 'email'],
  ] as const) {
    http.post<{ Body: ResetBody }>(
      url,
      {
        config: AUTH_RATE_LIMIT,
        schema: {
          summary: `Reset the login password with a \`reset\` code sent to the ${field}; ends all sessions and blocks withdrawals and fiat deposits for 24 h`,
          tags: ['identity'],
          body: resetBody(field),
        },
      },
      async (request) => {
        const { body } = request;
        await service.resetPassword(field, { ...body, account: body[field] ?? '' });
        return ok(null, 'identity.passwordReset');
      },
    );
  }
}

function registerWalletRoutes(http: FastifyInstance, { service }: IdentityRouteOptions): void {
  http.get(
    '/member/siweNonce',
    {
      config: AUTH_RATE_LIMIT,
      schema: {
        summary:
          'A single-use Sign-In with Ethereum nonce (valid 10 min) and the domain, URI and chains to sign for',
        tags: ['identity'],
      },
    },
    async () => ok(await service.issueSiweNonce()),
  );

  http.post<{
    Body: { message: string; signature: Hex; address?: string; parent?: string; device?: string };
  }>(
    '/member/loginByAddress',
    {
      config: AUTH_RATE_LIMIT,
      schema: {
        summary:
          'Wallet login (EIP-4361): the signed message proves the address; first login creates the user. Answers data.member and data.token',
        tags: ['identity'],
        body: {
          type: 'object',
          required: ['message', 'signature'],
          properties: {
            message: text(4096, 'The EIP-4361 message the wallet signed'),
            signature: { type: 'string', pattern: '^0x[0-9a-fA-F]+$', maxLength: 1024 },
            address: text(42, 'Optional; must be the address in the message'),
            parent: text(16, "The inviter's invitation code (optional, used on first login)"),
            device,
          },
        },
      },
    },
    async (request) => ok(await service.loginByAddress(request.body, clientOf(request)), 'identity.loggedIn'),
  );
}

/** A user agent is kept at most this long: it is the client's to write. */
const USER_AGENT_MAX = 512;

/** Where a sign-in comes from, for the login history (the address as the trusted proxies resolve it). */
function clientOf(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { ip: request.ip || null, userAgent: agent ? agent.slice(0, USER_AGENT_MAX) : null };
}

function sessionToken(request: FastifyRequest): string {
  const token = readToken(request);
  if (!token) throw new Error('sessionToken() on a route without requireUser');
  return token;
}

function registerProfileRoutes(http: FastifyInstance, { service, requireUser }: IdentityRouteOptions): void {
  const guarded = { preHandler: requireUser };

  http.get(
    '/user/userInfo',
    { ...guarded, schema: { summary: 'The signed-in user', tags: ['identity'], security: TOKEN } },
    async (request) => ok(await service.userInfo(currentUser(request).id)),
  );

  http.get(
    '/user/getInvitationUrl',
    {
      ...guarded,
      schema: { summary: 'Invitation code and referral link', tags: ['identity'], security: TOKEN },
    },
    async (request) => ok(await service.invitation(currentUser(request).id)),
  );

  http.post(
    '/user/logout',
    { ...guarded, schema: { summary: 'End this session', tags: ['identity'], security: TOKEN } },
    async (request) => {
      await service.logout(sessionToken(request));
      return ok(null, 'identity.loggedOut');
    },
  );

  http.post<{ Body: { oldPassword: string; password: string; confirmPassword: string } }>(
    '/user/editPassword',
    {
      ...guarded,
      config: AUTH_RATE_LIMIT,
      schema: {
        summary:
          'Change the login password; ends the other sessions and blocks withdrawals and fiat deposits for 24 h',
        tags: ['identity'],
        security: TOKEN,
        body: {
          type: 'object',
          required: ['oldPassword', 'password', 'confirmPassword'],
          properties: { oldPassword: password, password, confirmPassword: password },
        },
      },
    },
    async (request) => {
      await service.changePassword(currentUser(request).id, sessionToken(request), request.body);
      return ok(null, 'identity.passwordChanged');
    },
  );

  http.post<{ Body: { payPassword: string; confirmPayPassword: string; code?: string } }>(
    '/user/updatePassword',
    {
      ...guarded,
      config: AUTH_RATE_LIMIT,
      schema: {
        summary:
          'Set the 6-digit fund password; changing an existing one needs a `fund` code sent to the bound email (else phone)',
        tags: ['identity'],
        security: TOKEN,
        body: {
          type: 'object',
          required: ['payPassword', 'confirmPayPassword'],
          properties: { payPassword: text(6), confirmPayPassword: text(6), code },
        },
      },
    },
    async (request) => {
      await service.setFundPassword(currentUser(request).id, request.body);
      return ok(null, 'identity.fundPasswordSaved');
    },
  );

  http.post<{ Body: AccountBody & { code: string } }>(
    '/user/setNewTelOrEmail',
    {
      ...guarded,
      config: AUTH_RATE_LIMIT,
      schema: {
        summary: 'Bind or change the email or phone with a `bind` code sent to the new one',
        tags: ['identity'],
        security: TOKEN,
        body: { type: 'object', required: ['account', 'code'], properties: { account, areaCode, code } },
      },
    },
    async (request) => {
      await service.bindAccount(currentUser(request).id, request.body);
      return ok(null, 'identity.bound');
    },
  );

  http.post<{ Body: { name: string; idNumber: string; photoUrl: string } }>(
    '/user/editRealName',
    {
      ...guarded,
      schema: {
        summary: 'Submit identity verification (name, ID number, ID photo uploaded through /user/img)',
        tags: ['identity'],
        security: TOKEN,
        body: {
          type: 'object',
          required: ['name', 'idNumber', 'photoUrl'],
          properties: {
            name: text(64),
            idNumber: text(18),
            photoUrl: text(512, 'The url /user/img answered'),
          },
        },
      },
    },
    async (request) => {
      await service.submitKyc(currentUser(request).id, request.body);
      return ok(null, 'identity.kycSubmitted');
    },
  );
}

function registerUploadRoutes(http: FastifyInstance, { service, requireUser }: IdentityRouteOptions): void {
  http.post(
    '/user/img',
    {
      preHandler: requireUser,
      config: AUTH_RATE_LIMIT,
      schema: {
        summary:
          'Upload an image (multipart field `imgurl`; JPEG, PNG or WebP by content; at most 10 MB); data[0].url',
        tags: ['identity'],
        security: TOKEN,
        consumes: ['multipart/form-data'],
      },
    },
    async (request) => {
      const file = await readUploadedFile(request);
      if (file?.field !== 'imgurl') throw badRequest('identity.imageMissing');
      const saved = await service.saveUpload(currentUser(request).id, file.bytes);
      return ok([saved]);
    },
  );

  // An upload is personal data (an ID photo): its owner reads it with the
  // session token, an operator through /admin/uploads/:name (audited). The
  // random name alone opens nothing.
  http.get<{ Params: { name: string } }>(
    '/uploads/:name',
    {
      preHandler: requireUser,
      schema: {
        summary: 'One of your own uploaded images',
        tags: ['identity'],
        security: TOKEN,
        params: uploadName,
      },
    },
    async (request, reply) =>
      sendImage(reply, await service.readOwnUpload(currentUser(request).id, request.params.name)),
  );
}

const uploadName = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', pattern: '^[A-Za-z0-9_-]{32}\\.(jpg|png|webp)$' } },
};

function sendImage(reply: FastifyReply, image: StoredImage | null) {
  if (!image) throw notFound();
  return reply
    .header('content-type', image.contentType)
    .header('cache-control', 'private, no-store')
    .send(image.bytes);
}

function registerOperatorRoutes(
  http: FastifyInstance,
  { service, operatorGuard }: IdentityRouteOptions,
): void {
  const limit = { type: 'integer', minimum: 1, maximum: 500, default: 100 };

  http.get<{ Querystring: { state: 'review' | 'failed' | 'succeeded'; limit: number } }>(
    '/admin/identity/kyc',
    {
      // Names and ID numbers: personal data.
      preHandler: operatorGuard('pii.read'),
      schema: {
        summary:
          'Identity verification submissions by state (oldest first); read a photo at /admin/uploads/<name> (audited); each read of the queue is audited too',
        tags: ['operator'],
        security: ADMIN,
        querystring: {
          type: 'object',
          properties: {
            state: { type: 'string', enum: ['review', 'failed', 'succeeded'], default: 'review' },
            limit,
          },
        },
      },
    },
    async (request) => {
      const queue = await service.kycQueue(request.query.state, request.query.limit);
      await auditView(request, {
        action: 'kyc.queue.view',
        details: { state: request.query.state, submissions: queue.map((submission) => submission.id) },
      });
      return ok(queue);
    },
  );

  for (const approve of [true, false]) {
    http.post<{ Params: { id: number }; Body: { reason?: string } }>(
      `/admin/identity/kyc/:id/${approve ? 'approve' : 'reject'}`,
      {
        preHandler: operatorGuard('kyc.review'),
        schema: {
          summary: approve
            ? 'Approve a submission under review'
            : 'Reject a submission under review, with a reason',
          tags: ['operator'],
          security: ADMIN,
          params: { type: 'object', required: ['id'], properties: { id: idField } },
          body: {
            type: 'object',
            required: approve ? [] : ['reason'],
            properties: { reason: text(500, 'Shown to the user') },
          },
        },
      },
      async (request) => {
        const by = auditActor(request);
        await service.decideKyc(request.params.id, { by, approve, reason: request.body.reason });
        return ok(null);
      },
    );
  }

  http.post<{ Body: { userId: number; reason: string; setBy: string; startsAt?: number; endsAt: number } }>(
    '/admin/identity/freeze',
    {
      preHandler: operatorGuard('users.freeze'),
      schema: {
        summary:
          "Freeze a user's funds from startsAt (default now) until endsAt, with a reason (AMENDMENTS A6)",
        tags: ['operator'],
        security: ADMIN,
        body: {
          type: 'object',
          required: ['userId', 'reason', 'setBy', 'endsAt'],
          properties: {
            userId: idField,
            reason: text(500, 'Shown to the user'),
            setBy: text(
              64,
              'The rule the freeze is set under (shown to the user; the audit log names the signed-in operator)',
            ),
            startsAt: epochMsField('ms since the epoch'),
            endsAt: epochMsField('ms since the epoch'),
          },
        },
      },
    },
    async (request) => {
      await service.freeze(request.body, auditActor(request));
      return ok(null);
    },
  );

  http.post<{ Body: { userId: number; reason: string } }>(
    '/admin/identity/unfreeze',
    {
      preHandler: operatorGuard('users.freeze'),
      schema: {
        summary: "Lift a user's freezes, with a reason",
        tags: ['operator'],
        security: ADMIN,
        body: {
          type: 'object',
          required: ['userId', 'reason'],
          properties: { userId: idField, reason: text(500) },
        },
      },
    },
    async (request) => {
      await service.unfreeze(
        { userId: request.body.userId, reason: request.body.reason },
        auditActor(request),
      );
      return ok(null);
    },
  );

  http.get<{ Params: { name: string } }>(
    '/admin/uploads/:name',
    {
      preHandler: operatorGuard('pii.read'),
      schema: {
        summary: "A user's uploaded image (an ID photo); each view is written to the audit log",
        tags: ['operator'],
        security: ADMIN,
        params: uploadName,
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const found = await service.readUploadForOperator(name);
      if (!found) throw notFound();
      await auditView(request, {
        action: 'upload.view',
        subject: `upload:${name}`,
        userId: found.userId,
        details: { name },
      });
      return sendImage(reply, found.image);
    },
  );

  http.get<{ Querystring: { userId?: number; limit: number } }>(
    '/admin/identity/audit',
    {
      preHandler: operatorGuard('audit.read'),
      schema: {
        summary: 'The append-only operator audit log, newest first',
        tags: ['operator'],
        security: ADMIN,
        querystring: { type: 'object', properties: { userId: idField, limit } },
      },
    },
    async (request) => ok(await service.auditLog(request.query.userId ?? null, request.query.limit)),
  );
}
