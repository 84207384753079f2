import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  bcc: string[];
  /** The HTML part, when the mail has one. */
  html: string;
  /** Each header's raw value by its lower-case name (the last one when repeated). */
  headers: Record<string, string>;
}

/**
 * A real SMTP receiver on 127.0.0.1 (smtp-server): the application sends through nodemailer to it, and
 * tests read what arrived. No TLS or AUTH, as on a local relay.
 */
export async function startMailbox() {
  const mails: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  /** While held, each mail is taken in (and listed) but not acknowledged: its sender waits for the answer. */
  let held: Promise<void> | null = null;
  /** Mails are held once this many have been listed. */
  let holdFrom = 0;
  let release = () => {};
  /** How many of the next mails to refuse (550), as a mail server that is failing would. */
  let refuse = 0;
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    // No reverse DNS of the client (127.0.0.1): it cost about 100 ms a mail.
    disableReverseLookup: true,
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if (refuse > 0) {
            refuse--;
            return callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }));
          }
          const envelopeTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          const headerTo = [parsed.to].flat().flatMap((a) => a?.value.map((v) => v.address?.toLowerCase() ?? "") ?? []);
          mails.push({
            to: headerTo,
            bcc: envelopeTo.filter((a) => !headerTo.includes(a)),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            headers: Object.fromEntries(
              parsed.headerLines.map(({ key, line }) => [
                key,
                line
                  .slice(line.indexOf(":") + 1)
                  .replace(/\r?\n\s+/g, " ")
                  .trim(),
              ]),
            ),
          });
          waiters.splice(0).forEach((wake) => wake());
          if (held && mails.length > holdFrom) void held.then(() => callback());
          else callback();
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
    /** Refuse the next `count` mails with a 550 (they are not listed). */
    refuseNext: (count: number) => {
      refuse = count;
    },
    /**
     * Stop acknowledging mails (a sender stays in the middle of its send) until `release()`: those that
     * arrive once `after` mails have been listed (by default, from now on).
     */
    hold: (after = mails.length) => {
      holdFrom = after;
      held ??= new Promise<void>((resolve) => (release = resolve));
    },
    release: () => {
      held = null;
      release();
    },
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
