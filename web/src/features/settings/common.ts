/** What the settings cards share: the organization as the settings query returns it, and how they show a time. */
import type { SettingsQuery } from "../../gql/graphql.ts";

/** The active organization as the settings query returns it. */
export type Org = NonNullable<SettingsQuery["organization"]>;

/** A time in the reader's locale, or "never" for none. */
export function date(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "never";
}
