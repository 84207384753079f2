import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  bcc: string[];
}

/**
 * A real SMTP receiver on 127.0.0.1 (smtp-server): the application sends through nodemailer to it, and
 * tests read what arrived. No TLS or AUTH, as on a local relay.
 */
export async function startMailbox() {
  const mails: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const envelopeTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          const headerTo = [parsed.to].flat().flatMap((a) => a?.value.map((v) => v.address?.toLowerCase() ?? "") ?? []);
          mails.push({
            to: headerTo,
            bcc: envelopeTo.filter((a) => !headerTo.includes(a)),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
          });
          waiters.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch(callback);
    },
  });
  const port = await new Promise<number>((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve((server.server.address() as { port: number }).port));
  });

  /** The next mail to an address that arrives after `since` mails had (default: any not yet taken). */
  async function next(to: string, { timeoutMs = 10_000, after = 0 } = {}): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = mails.slice(after).find((m) => m.to.includes(to.toLowerCase()) && !taken.has(m));
      if (found) {
        taken.add(found);
        return found;
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no mail to ${to} within ${timeoutMs} ms; got: ${mails.map((m) => `${m.to} ${m.subject}`).join("; ")}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
  const taken = new Set<ReceivedMail>();

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Mailbox = Awaited<ReturnType<typeof startMailbox>>;

export function codeFrom(mail: ReceivedMail) {
  const match = mail.text.match(/\b(\d{6})\b/);
  if (!match) throw new Error(`no code in mail: ${mail.text}`);
  return match[1];
}

export function linkFrom(mail: ReceivedMail) {
  const match = mail.text.match(/https?:\/\/\S+/);
  if (!match) throw new Error(`no link in mail: ${mail.text}`);
  return new URL(match[0]);
}
