import nodemailer from 'nodemailer';

/** Sends an email. Production sets `SMTP_URL`; without it demo mode shows the code to its requester. */
export interface Mailer {
  send(to: string, subject: string, text: string): Promise<void>;
}

/** Sends a text message. No provider ships with Halyard; a deployment plugs one in here. */
export interface SmsSender {
  send(to: string, text: string): Promise<void>;
}

/**
 * The real channels. Without one for an account's kind, demo mode answers the
 * code to whoever asked for it (`demoCode`), and live mode refuses to send.
 */
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
