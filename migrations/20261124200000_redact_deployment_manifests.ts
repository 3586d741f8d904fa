/**
 * Stored manifests carry no secret material (deployment.manifests.ts `redactManifests`): the
 * `data`/`stringData` values of every `Secret` in manifests stored before are replaced by the redaction marker, in
 * one statement. Keys stay. What a deployment applies is rendered afresh from the encrypted sources each time.
 */
import type { Knex } from "knex";

/** The marker, as `REDACTED` in deployment.manifests.ts (a migration never imports application code). */
const REDACTED = "<redacted: stored encrypted, resolved when applied>";

/** Every value of the object `field` of Secret `m` replaced by the marker (SQL over the jsonb element `m`). */
const redactField = (field: string) => `
  case when jsonb_typeof(m->'${field}') = 'object' then jsonb_build_object('${field}',
    (select coalesce(jsonb_object_agg(k, to_jsonb(cast(:marker as text))), '{}'::jsonb) from jsonb_object_keys(m->'${field}') k))
  else '{}'::jsonb end`;

/** Redacts the Secrets of every stored manifest list. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `update deployments set manifests = (
       select jsonb_agg(case when m->>'kind' = 'Secret' then m || ${redactField("data")} || ${redactField("stringData")}
                        else m end order by ord)
       from jsonb_array_elements(manifests) with ordinality as e(m, ord))
     where jsonb_typeof(manifests) = 'array'
       and exists (select 1 from jsonb_array_elements(manifests) m where m->>'kind' = 'Secret')`,
    { marker: REDACTED },
  );
}

/** Redacted values cannot be recovered; nothing to undo (later deployments store the same redacted form). */
export async function down(): Promise<void> {}
