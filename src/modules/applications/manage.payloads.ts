/**
 * What the management mutations' payload types hold (codegen mappers, graphql-mappers.ts): ids only — the objects
 * are re-read by id with the caller's selection and visibility (src/reads/resolvers.ts).
 */

/** An object of a table type, handed on by id. */
export interface ById {
  id: string;
}

/** `EnvironmentVariablesResult`. */
export interface EnvironmentVariablesPayload {
  application: ById;
  setKeys: string[];
  deployment: ById | null;
}

/** `DatabaseChange`. */
export interface DatabaseChangePayload {
  database: ById;
  applications: ById[];
  /** The password Skiff generated, answered once; null when the caller gave one. */
  generatedPassword: string | null;
}

/** `DeletionResult`. */
export interface DeletionPayload {
  id: string;
  affectedApplications: ById[];
}
