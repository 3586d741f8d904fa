/**
 * The platform administrator's two-factor reset (spec "Sign-in and accounts": without the authenticator and the
 * recovery codes, only the platform administrator can help). Run by `npm run skiff -- reset-2fa <email>`.
 */
import type { Knex } from "knex";

/** What a reset did. */
export interface TwoFactorReset {
  userId: string;
  email: string;
  /** Whether two-factor authentication was enabled before the reset. */
  wasEnabled: boolean;
}

/**
 * Turns two-factor authentication off for the account with `email` (case-insensitive): deletes its TOTP secret
 * and recovery codes (`two_factors`) and clears `users.two_factor_enabled`, so the next sign-in needs only the
 * password; the user can enable two-factor again. Sessions are kept.
 * @returns what was reset, or null when no account has that address.
 */
export async function resetTwoFactor(knex: Knex, email: string): Promise<TwoFactorReset | null> {
  return knex.transaction(async (trx) => {
    const user: { id: string; email: string; twoFactorEnabled: boolean } | undefined = await trx("users")
      .whereRaw("lower(email) = lower(?)", [email.trim()])
      .forUpdate()
      .first("id", "email", "two_factor_enabled");
    if (!user) return null;
    await trx("two_factors").where({ user_id: user.id }).delete();
    await trx("users").where({ id: user.id }).update({ two_factor_enabled: false, updated_at: trx.fn.now() });
    return { userId: user.id, email: user.email, wasEnabled: user.twoFactorEnabled };
  });
}
