/** The invitation e-mail (spec: an invitation is addressed to one e-mail address and carries a link). */
import type { MailMessage } from "../../auth/mailer.ts";

/** What the invitation mail says. */
export interface InvitationMailInput {
  to: string;
  organizationName: string;
  inviterName: string;
  role: string;
  link: string;
  expiresAt: Date;
}

/** The plain-text invitation mail; the link is alone on its line. */
export function invitationMail(input: InvitationMailInput): MailMessage {
  return {
    to: input.to,
    subject: `${input.inviterName} invited you to ${input.organizationName} on Skiff`,
    text: [
      `${input.inviterName} invited you to join ${input.organizationName} on Skiff as ${input.role}.`,
      "",
      "Open this link to accept (sign in with this e-mail address, or create your account there):",
      "",
      input.link,
      "",
      `The link works until ${input.expiresAt.toISOString()} (48 hours after it was sent).`,
      "",
    ].join("\n"),
  };
}
