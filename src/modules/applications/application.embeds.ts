/**
 * Children of an application that another module owns but the application loaders read in the same statement
 * (look-ahead: `applications { deployments { … } }` is one query). The owner hands its SQL fragment in
 * ({@link provideDeploymentsEmbed}, called by src/modules/deployments), so this module never names its table.
 */

/** The deployments module's fragment and row mapper for an application's newest deployments. */
export interface DeploymentsEmbed {
  /** A scalar subquery (one binding: how many) of the newest deployments of `applicationIdSql`, as a JSON array. */
  sql(applicationIdSql: string): string;
  /** Turns that JSON array into the deployments module's rows (in place). */
  fromJson(rows: unknown[]): unknown[];
}

let deployments: DeploymentsEmbed | null = null;

/** Registers the deployments embed (called once by the deployments module when it loads). */
export function provideDeploymentsEmbed(embed: DeploymentsEmbed): void {
  deployments = embed;
}

/** The registered deployments embed. @throws Error when the deployments module is not loaded. */
export function deploymentsEmbed(): DeploymentsEmbed {
  if (!deployments) throw new Error("The deployments module has not provided its embed (it is not loaded)");
  return deployments;
}
