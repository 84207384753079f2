import { z } from "zod";
import { createSuperAdmin } from "../app/models/user.server";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../app/utils/auth-schemas";
import { readConfig } from "../server/config";
import { Platform } from "../server/platform";

/**
 * `npm run super-admin -- <email>` with the password in SUPER_ADMIN_PASSWORD (never on the command
 * line, where it would land in the shell's history and the process list).
 */
const input = z
  .object({
    email: z.string().trim().email(),
    password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
  })
  .safeParse({ email: process.argv[2], password: process.env.SUPER_ADMIN_PASSWORD });
if (!input.success) {
  console.error("Usage: SUPER_ADMIN_PASSWORD=… npm run super-admin -- someone@example.com (password at least 6 characters)");
  process.exit(2);
}
const platform = new Platform(readConfig());
try {
  const admin = await createSuperAdmin(platform.db, { email: input.data.email, password: input.data.password });
  console.log(`Super-admin ${admin.email} created (id ${admin.id}).`);
} catch (error) {
  console.error(String(error).includes("UNIQUE") ? "A super-admin with that e-mail address already exists." : String(error));
  process.exitCode = 1;
} finally {
  platform.close();
}
