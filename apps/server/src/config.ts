import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { HALYARD_VERSION } from '@halyard/protocol';
import type { ContactLinks } from './modules/content/service.ts';
import { loadWalletConfig, type WalletConfig } from './modules/wallet/config.ts';

/**
 * Every setting Halyard reads, from the environment, each with a default that
 * works offline: a fresh clone starts with nothing but `npm start`.
 */
export interface Config {
  /**
   * What this process is (HALYARD_ROLE, docs/deployment.md): `all-in-one`
   * (the default: everything in one process, SQLite or PostgreSQL), or in
   * cluster mode a `gateway` (HTTP and WebSocket over a ClusterCore) or a
   * `sequencer` (a node of the sequenced core). Both cluster roles need
   * PostgreSQL.
   */
  role: Role;
  /** Cluster mode's settings; read for every role, used by `gateway` and `sequencer` only. */
  cluster: ClusterConfig;
  port: number;
  /** The address to listen on: loopback unless `HOST` opens it (e.g. 0.0.0.0 behind a proxy or in a container). */
  host: string;
  /**
   * Proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`: IPs or
   * CIDRs, comma-separated). Empty: the client's own address counts, so a
   * forged header cannot dodge the per-IP limits.
   */
  trustedProxies: string[];
  /** `postgres://…` switches storage to PostgreSQL; otherwise a SQLite file. */
  databaseUrl: string | null;
  /** PostgreSQL only: a schema to run in (HALYARD_DATABASE_SCHEMA), created and migrated at start. */
  schema: string | undefined;
  sqliteFile: string;
  dataDir: string;
  /**
   * Whether the money runs on the sequenced core (issue 19): commands to a
   * journal under `dataDir/core`, the state in memory, the SQL tables written
   * behind it (docs/core.md). `HALYARD_MONEY_CORE=false` runs every money
   * write in SQL transactions instead, as Halyard did before the core.
   */
  moneyCore: boolean;
  /**
   * Where uploaded images are kept (`HALYARD_UPLOAD_DIR`, default
   * `dataDir/uploads`). In a cluster, storage every gateway reaches (a
   * shared mount): an image uploaded through one is read through another.
   */
  uploadDir: string;
  /** Names the first administrator (`admin-token` header of POST /admin/auth/bootstrap); refused once one exists. */
  adminToken: string;
  /** Demo mode: simulated prices, play money, a DEMO badge (AMENDMENTS A5). */
  demo: boolean;
  /**
   * The hosts (host[:port]) a wallet sign-in message (EIP-4361) may name: the
   * first is the one the nonce route advertises. SIWE_DOMAINS, else
   * PUBLIC_URL's host and, in demo, the loopback names at the port.
   */
  siweDomains: string[];
  siweUri: string;
  /** The operator's public address: referral links and QR codes point here. */
  publicUrl: string;
  /** False when PUBLIC_URL was not set and publicUrl is the localhost fallback. */
  publicUrlConfigured: boolean;
  smtpUrl: string | null;
  mailFrom: string;
  sessionTtlMs: number;
  /** argon2id cost of new password hashes; a stored hash carries its own, so changing this never locks anyone out. */
  passwordHashCost: PasswordHashCost;
  logLevel: string;
  /** Seed of the index-price simulator: the same seed gives the same price path. */
  priceSeed: string;
  /** Interval between index-price ticks. */
  priceTickMs: number;
  /**
   * Phone area codes (digits) whose users may not trade cycle contracts:
   * regulators ban such products for retail in some places. Identity records
   * no KYC country, so the area code is the country Halyard knows.
   */
  cycleRefusedAreaCodes: string[];
  /** Chains, deposit xpub, hot wallet, demo chain, convert spread, WITHDRAWAL_FOUR_EYES_ABOVE (modules/wallet/config.ts). */
  wallet: WalletConfig;
  /**
   * The release /home/versions reports as running (`nowCode`): the code's
   * HALYARD_VERSION unless HALYARD_RELEASE names another (a CI build label, or a
   * test of the web app's update prompt).
   */
  release: string;
  /** The operator's native apps (APP_ANDROID_URL, APP_IOS_URL): /downloadApp links them; empty hides them. */
  nativeApps: { androidUrl: string; iosUrl: string };
  /**
   * The operator's contact details and links (SUPPORT_URL, SUPPORT_CHAT_URL,
   * SUPPORT_LINE_URL, SUPPORT_EMAIL, SUPPORT_PHONE, SOCIAL_LINKS): home's top
   * bar and About us show them, unless the operator stored others; unset ones
   * are hidden.
   */
  contact: ContactLinks;
}

export const ROLES = ['all-in-one', 'gateway', 'sequencer'] as const;
export type Role = (typeof ROLES)[number];

export interface ClusterConfig {
  /** HALYARD_CLUSTER: the cluster's name, which names its stream, buckets and subjects. */
  name: string;
  /** HALYARD_NATS_URL: NATS with JetStream. */
  natsUrl: string;
  /** HALYARD_NODE_ID: this process's name in the cluster, unique (default: the host's). */
  nodeId: string;
  /** HALYARD_LEASE_TTL_MS: how long a silent leader keeps the sequencer's lease. */
  leaseTtlMs: number;
  /**
   * HALYARD_JOBS_LEASE_TTL_MS: how long a silent gateway keeps the `jobs`
   * lease (default 10 s): a gateway's thread serves HTTP and may be busy for
   * a second, and the jobs can wait a few seconds for a new holder.
   */
  jobsLeaseTtlMs: number;
  /** HALYARD_SNAPSHOT_EVERY_MS, HALYARD_KEEP_SNAPSHOTS: the leader's snapshots. */
  snapshotEveryMs: number;
  keepSnapshots: number;
  /** HALYARD_PROJECTOR: the leader's projector on the node's thread (default) or in a worker thread. */
  projector: 'thread' | 'worker';
  /** HALYARD_HEALTH_PORT: a sequencer's /healthz and /readyz (default 8081); 0 serves none. */
  healthPort: number;
}

export interface PasswordHashCost {
  memoryKib: number;
  passes: number;
}

function readInt(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number.parseInt(value, 10);
  if (!Number.isSafeInteger(parsed)) throw new Error(`expected an integer, got ${value}`);
  return parsed;
}

/** A comma-separated list; blanks and a leading "+" are dropped. */
function readList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim().replace(/^\+/, ''))
    .filter((item) => item !== '');
}

/** An http(s) link (a native app, a support page), or '' when unset: anything else is a configuration mistake. */
function readAppUrl(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim() ?? '';
  if (value !== '' && !/^https?:\/\//.test(value))
    throw new Error(`${name} must be an http(s) URL, got ${value}`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.HALYARD_DATA_DIR ?? 'data');
  const port = readInt(env.PORT, 8080);
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const demo = env.HALYARD_DEMO !== 'false';
  const role = readRole(env.HALYARD_ROLE);
  const databaseUrl = env.DATABASE_URL || null;
  if (role !== 'all-in-one' && !databaseUrl?.startsWith('postgres'))
    throw new Error(
      `HALYARD_ROLE=${role} needs DATABASE_URL to name PostgreSQL (postgres://…): a cluster keeps its record there`,
    );
  return {
    role,
    cluster: loadClusterConfig(env),
    port,
    host: env.HOST || '127.0.0.1',
    trustedProxies: readList(env.TRUSTED_PROXIES ?? ''),
    databaseUrl,
    schema: env.HALYARD_DATABASE_SCHEMA || undefined,
    sqliteFile: env.SQLITE_FILE ?? path.join(dataDir, 'halyard.sqlite'),
    dataDir,
    moneyCore: env.HALYARD_MONEY_CORE !== 'false',
    uploadDir: path.resolve(env.HALYARD_UPLOAD_DIR || path.join(dataDir, 'uploads')),
    // A random admin token per start when none is configured: operator routes
    // are never open by default.
    adminToken: env.ADMIN_TOKEN ?? randomBytes(24).toString('hex'),
    demo,
    siweDomains: siweDomains(env.SIWE_DOMAINS, publicUrl, demo ? port : null),
    siweUri: publicUrl,
    publicUrl,
    publicUrlConfigured: Boolean(env.PUBLIC_URL),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Halyard <no-reply@halyard.local>',
    sessionTtlMs: readInt(env.SESSION_TTL_HOURS, 24 * 7) * 3_600_000,
    // argon2's own defaults (64 MiB, 3 passes), the OWASP-recommended range.
    passwordHashCost: {
      memoryKib: readInt(env.PASSWORD_HASH_MEMORY_KIB, 65_536),
      passes: readInt(env.PASSWORD_HASH_PASSES, 3),
    },
    logLevel: env.LOG_LEVEL ?? 'info',
    priceSeed: env.HALYARD_PRICE_SEED || 'halyard',
    priceTickMs: readInt(env.PRICE_TICK_MS, 1000),
    // Default: +1 (US, Canada) and +44 (UK), where fixed-time binary products are barred for retail.
    cycleRefusedAreaCodes: readList(env.CYCLE_REFUSED_AREA_CODES ?? '1,44'),
    wallet: loadWalletConfig(env, { demo, dataDir }),
    release: env.HALYARD_RELEASE || HALYARD_VERSION,
    nativeApps: { androidUrl: readAppUrl(env, 'APP_ANDROID_URL'), iosUrl: readAppUrl(env, 'APP_IOS_URL') },
    contact: {
      externalUrl: readAppUrl(env, 'SUPPORT_URL'),
      onlineChatUrl: readAppUrl(env, 'SUPPORT_CHAT_URL'),
      LINEURL: readAppUrl(env, 'SUPPORT_LINE_URL'),
      email: env.SUPPORT_EMAIL?.trim() ?? '',
      phone: env.SUPPORT_PHONE?.trim() ?? '',
      socials: readSocialLinks(env.SOCIAL_LINKS ?? ''),
    },
  };
}

function readRole(value: string | undefined): Role {
  const role = value || 'all-in-one';
  if (!(ROLES as readonly string[]).includes(role))
    throw new Error(`HALYARD_ROLE must be one of ${ROLES.join(', ')}, got ${role}`);
  return role as Role;
}

function loadClusterConfig(env: NodeJS.ProcessEnv): ClusterConfig {
  const projector = env.HALYARD_PROJECTOR || 'thread';
  if (projector !== 'thread' && projector !== 'worker')
    throw new Error(`HALYARD_PROJECTOR must be thread or worker, got ${projector}`);
  return {
    name: env.HALYARD_CLUSTER || 'halyard',
    natsUrl: env.HALYARD_NATS_URL || '127.0.0.1:4222',
    nodeId: env.HALYARD_NODE_ID || os.hostname().replace(/[^A-Za-z0-9_-]/g, '-'),
    leaseTtlMs: readInt(env.HALYARD_LEASE_TTL_MS, 2_000),
    jobsLeaseTtlMs: readInt(env.HALYARD_JOBS_LEASE_TTL_MS, 10_000),
    snapshotEveryMs: readInt(env.HALYARD_SNAPSHOT_EVERY_MS, 5 * 60_000),
    keepSnapshots: readInt(env.HALYARD_KEEP_SNAPSHOTS, 3),
    projector,
    healthPort: readInt(env.HALYARD_HEALTH_PORT, 8081),
  };
}

/** SOCIAL_LINKS: "Telegram=https://t.me/x,X=https://x.com/y", in this order; each link must be http(s). */
function readSocialLinks(value: string): ContactLinks['socials'] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      const split = item.indexOf('=');
      const name = item.slice(0, split).trim();
      const url = item.slice(split + 1).trim();
      if (split <= 0 || !/^https?:\/\//.test(url)) {
        throw new Error(`SOCIAL_LINKS entries are Name=https://…, got ${item}`);
      }
      return { name, url };
    });
}

/**
 * The allow-list of wallet sign-in hosts. A configured list is taken as it is;
 * by default PUBLIC_URL's host, plus (demo only, `loopbackPort` set) the
 * loopback names a developer opens the app on: localhost, 127.0.0.1 and [::1].
 */
function siweDomains(
  configured: string | undefined,
  publicUrl: string,
  loopbackPort: number | null,
): string[] {
  const listed = configured ? readList(configured).map((host) => host.toLowerCase()) : [];
  if (listed.length > 0) return listed;
  const hosts = [new URL(publicUrl).host];
  if (loopbackPort !== null) {
    // Through URL so that port 80 is left out, as the browser's location.host leaves it out.
    for (const name of ['localhost', '127.0.0.1', '[::1]'])
      hosts.push(new URL(`http://${name}:${loopbackPort}`).host);
  }
  return [...new Set(hosts)];
}

/** Settings a live deployment should not run without; main.ts logs each at start. */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (!config.demo && !config.publicUrlConfigured) {
    warnings.push(
      `PUBLIC_URL is not set: referral links and QR codes point at ${config.publicUrl}, which a friend's phone cannot open`,
    );
  }
  return warnings;
}
