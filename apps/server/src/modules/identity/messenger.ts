import nodemailer from 'nodemailer';

/** Sends an email. Production sets `SMTP_URL`; without it codes land in the dev outbox. */
export interface Mailer {
  send(to: string, subject: string, text: string): Promise<void>;
}

/** Sends a text message. No provider ships with Halyard; a deployment plugs one in here. */
export interface SmsSender {
  send(to: string, text: string): Promise<void>;
}

/** The real channels; a missing one falls back to the dev outbox table. */
export interface Messengers {
  mailer: Mailer | null;
  sms: SmsSender | null;
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(to, subject, text) {
      await transport.sendMail({ from, to, subject, text });
    },
  };
}
