import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { logger } from "./logger";

export interface MailMessage {
  to: string;
  bcc?: string | null;
  subject: string;
  text: string;
  html?: string;
  /** Extra header lines, such as a reminder's List-Unsubscribe (RFC 8058). */
  headers?: Record<string, string>;
}

/**
 * Sends mail through SMTP when SMTP_URL is set; otherwise writes each message as an .eml file under
 * `<DATA_DIR>/outbox/` (written to a temporary name, then renamed, so a reader never sees half a file).
 */
export class Mailer {
  readonly #transport: Transporter;

  constructor(readonly options: { smtpUrl?: string; from: string; outboxDir: string }) {
    this.#transport = options.smtpUrl
      ? nodemailer.createTransport(options.smtpUrl)
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  }

  async send(message: MailMessage) {
    const info = await this.#transport.sendMail({
      from: this.options.from,
      to: message.to,
      bcc: message.bcc ?? undefined,
      subject: message.subject,
      text: message.text,
      html: message.html,
      headers: message.headers,
    });
    if (this.options.smtpUrl) {
      logger.info({ to: message.to, subject: message.subject }, "mail sent");
      return;
    }
    fs.mkdirSync(this.options.outboxDir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}.eml`;
    const file = path.join(this.options.outboxDir, name);
    fs.writeFileSync(`${file}.tmp`, (info as unknown as { message: Buffer }).message);
    fs.renameSync(`${file}.tmp`, file);
    logger.info({ to: message.to, subject: message.subject, file }, "mail written");
  }
}
