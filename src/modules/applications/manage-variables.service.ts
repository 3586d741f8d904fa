/**
 * Setting and removing an application's environment variables one by one or from a `.env` paste (GraphQL
 * `setEnvironmentVariable`, `setEnvironmentVariables`, `unsetEnvironmentVariable`). Values are stored encrypted
 * (src/db/secrets.ts) and never logged nor sent in events; a value equal to the stored one is no change, so a retry
 * changes nothing. A change marks the application as needing a deployment, or queues one in the same transaction
 * with `deploy: true`; `application.variables_changed` names the keys.
 */
import type { Knex } from "knex";
import { z } from "zod";
import { BadUserInputError, echoed } from "../../shared/errors.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { parseInput } from "../../shared/validate.ts";
import type { Context, ServiceContext } from "../context.ts";
import { events } from "../events.ts";
import { deployInTransaction } from "./application.deployer.ts";
import {
  ENV_KEY,
  envKeySchema,
  envValueSchema,
  MAX_ENV_VARS,
  variableLimitProblem,
  variableSizeProblem,
  variablesBytes,
} from "./application.input.ts";
import { type Application, EnvironmentVariable } from "./application.model.ts";
import { readDotenvPaste } from "./dotenv-paste.ts";
import { lockApplication, manageableApplication } from "./manage.access.ts";
import { applicationRef, changedBy, markNeedsDeployment } from "./manage.events.ts";

/** The stored variables of `applicationId` with their values decrypted, by key. */
async function storedValues(ctx: ServiceContext, applicationId: string): Promise<Map<string, string>> {
  const rows = await EnvironmentVariable.query(ctx.knex).where({ applicationId });
  return new Map(rows.map((r) => [r.key, ctx.services.secrets.decrypt(r.valueEncrypted)]));
}

/** Outcome of {@link applyChange}. */
interface Applied {
  app: Application;
  setKeys: string[];
  deploymentId: string | null;
}

/**
 * In one transaction on the locked application: sets `set` (key → value; keys whose stored value is equal are
 * skipped) and removes `unset`; a change adding variables past {@link MAX_ENV_VARS} is refused, one that adds none
 * is always allowed ({@link variableLimitProblem}), and so is one growing them past what one Kubernetes Secret holds
 * ({@link variableSizeProblem}). Then marks the application (or deploys it with `deploy`, also when it already
 * needed a deployment) and emits the event. Every surface that sets an application's variables one by one or in a
 * batch (GraphQL, REST, an organization import) comes through here.
 * @throws BadUserInputError (`formErrors`) past the count limit, (`fieldErrors[field]`) past the size limit.
 */
async function applyChange(
  ctx: Context,
  applicationId: string,
  set: ReadonlyArray<[string, string]>,
  unset: readonly string[],
  deploy: boolean,
  field: string,
): Promise<Applied> {
  return withTransaction(ctx, async (tx) => {
    const app = await lockApplication(tx.knex, applicationId);
    const stored = await storedValues(tx, applicationId);
    const changed = set.filter(([key, value]) => stored.get(key) !== value);
    const removed = unset.filter((key) => stored.has(key));
    const count = stored.size + changed.filter(([key]) => !stored.has(key)).length - removed.length;
    const tooMany = variableLimitProblem(stored.size, count);
    if (tooMany) {
      throw new BadUserInputError(tooMany, { formErrors: [`At most ${MAX_ENV_VARS} variables per application`] });
    }
    const after = new Map(stored);
    for (const key of removed) after.delete(key);
    for (const [key, value] of changed) after.set(key, value);
    const tooLarge = variableSizeProblem(variablesBytes(stored), variablesBytes(after));
    if (tooLarge)
      throw new BadUserInputError(`Invalid variables: ${tooLarge}`, { fieldErrors: { [field]: [tooLarge] } });
    if (changed.length) {
      await EnvironmentVariable.query(tx.knex)
        .insert(
          changed.map(([key, value]) => ({ applicationId, key, valueEncrypted: tx.services.secrets.encrypt(value) })),
        )
        .onConflict(["application_id", "key"])
        .merge(["valueEncrypted"]);
    }
    if (removed.length)
      await EnvironmentVariable.query(tx.knex).where({ applicationId }).whereIn("key", removed).delete();
    const anyChange = changed.length > 0 || removed.length > 0;
    let deploymentId: string | null = null;
    if (deploy && (anyChange || app.needsDeployment)) {
      deploymentId = (await deployInTransaction(tx, applicationId, "Environment variables changed")).id;
    } else if (anyChange) {
      await markNeedsDeployment(tx.knex, [applicationId]);
    }
    if (anyChange) {
      await events.emit(tx, "application.variables_changed", {
        organizationId: app.organizationId,
        data: {
          application: applicationRef(app),
          set: changed.map(([key]) => key),
          removed,
          ...(deploymentId && { deployment_id: deploymentId }),
          ...changedBy(tx),
        },
      });
    }
    return { app, setKeys: changed.map(([key]) => key), deploymentId };
  });
}

/** The application as it is now (after a change in a committed transaction). */
async function current(knex: Knex, app: Application): Promise<Application> {
  return (await app.$query(knex)) ?? app;
}

const oneSchema = z.strictObject({ key: envKeySchema, value: envValueSchema });

/**
 * `setEnvironmentVariable` (owners and admins): creates or replaces one variable. @returns the application.
 * @throws NotFoundError, ForbiddenError, BadUserInputError (`fieldErrors.key`, `fieldErrors.value`, the latter also
 * when the application's variables would outgrow one Secret).
 */
export async function setEnvironmentVariable(
  ctx: Context,
  applicationId: string,
  raw: { key: string; value: string },
  deploy: boolean,
): Promise<Application> {
  await manageableApplication(ctx, applicationId);
  const { key, value } = parseInput(oneSchema, raw, "Invalid variable");
  const { app } = await applyChange(ctx, applicationId, [[key, value]], [], deploy, "value");
  return current(ctx.knex, app);
}

/** Lines of a paste named in `fieldErrors` at most; the others are counted in `formErrors`. */
const MAX_PASTE_PROBLEMS = 50;

const listSchema = z.array(oneSchema).max(MAX_ENV_VARS, `At most ${MAX_ENV_VARS} variables`);

/**
 * `setEnvironmentVariables` (owners and admins): `variables` or a `.env` paste (`dotenv`), exactly one. Every
 * problem is reported at once and nothing is set: `fieldErrors` under `variables.<i>.key` / `.value`, or
 * `line.<n>` for a paste (not `KEY=value`, invalid name, duplicate, value too long, unclosed quote; the first 50
 * such lines, the count of the others in `formErrors`); variables that would outgrow one Secret under `variables`
 * or `dotenv`.
 * @returns the application, the keys set and the queued deployment's id.
 * @throws NotFoundError, ForbiddenError, BadUserInputError.
 */
export async function setEnvironmentVariables(
  ctx: Context,
  applicationId: string,
  input: { variables?: ReadonlyArray<{ key: string; value: string }> | null; dotenv?: string | null },
  deploy: boolean,
): Promise<{ application: Application; setKeys: string[]; deployment: { id: string } | null }> {
  await manageableApplication(ctx, applicationId);
  if ((input.variables == null) === (input.dotenv == null)) {
    throw new BadUserInputError("Invalid variables: give either variables or dotenv", {
      formErrors: ["Give either variables or dotenv"],
    });
  }
  let pairs: Array<[string, string]>;
  if (input.variables != null) {
    const { variables: list } = parseInput(
      z.strictObject({ variables: listSchema }),
      { variables: input.variables },
      "Invalid variables",
    );
    const fieldErrors: Record<string, string[]> = {};
    const seen = new Map<string, number>();
    list.forEach(({ key }, i) => {
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i);
      else fieldErrors[`variables.${i}.key`] = [`Duplicate of variables.${first}`];
    });
    if (Object.keys(fieldErrors).length) {
      throw new BadUserInputError(`Invalid variables: ${Object.values(fieldErrors)[0]![0]}`, { fieldErrors });
    }
    pairs = list.map((v) => [v.key, v.value]);
  } else {
    const { variables, problems } = readDotenvPaste(input.dotenv!);
    if (problems.length) {
      // The first lines named, the rest counted: the answer stays small whatever the paste's size.
      const fieldErrors: Record<string, string[]> = {};
      for (const p of problems.slice(0, MAX_PASTE_PROBLEMS)) {
        fieldErrors[`line.${p.line}`] = [p.key ? `${echoed(p.key)}: ${p.message}` : p.message];
      }
      const more = problems.length - MAX_PASTE_PROBLEMS;
      const formErrors = more > 0 ? [`${more} more lines are not applied either`] : [];
      const first = problems[0]!;
      throw new BadUserInputError(`Invalid .env paste: line ${first.line}: ${first.message}`, {
        fieldErrors,
        formErrors,
      });
    }
    if (!variables.length) {
      throw new BadUserInputError("Invalid .env paste: no KEY=value line", { formErrors: ["No KEY=value line"] });
    }
    pairs = variables.map((v) => [v.key, v.value]);
  }
  const field = input.variables != null ? "variables" : "dotenv";
  const { app, setKeys, deploymentId } = await applyChange(ctx, applicationId, pairs, [], deploy, field);
  return {
    application: await current(ctx.knex, app),
    setKeys,
    deployment: deploymentId ? { id: deploymentId } : null,
  };
}

/**
 * `unsetEnvironmentVariable` (owners and admins): removes `key`; a key that is not set is no change. A name the
 * application holds is removable even when the name rules refuse it (e.g. one past the length limit): such a
 * variable cannot reach the cluster, and removing it is the way out.
 * @returns the application. @throws NotFoundError, ForbiddenError, BadUserInputError (`fieldErrors.key`).
 */
export async function unsetEnvironmentVariable(
  ctx: Context,
  applicationId: string,
  key: string,
  deploy: boolean,
): Promise<Application> {
  await manageableApplication(ctx, applicationId);
  const held =
    ENV_KEY.test(key) &&
    !envKeySchema.safeParse(key).success &&
    (await EnvironmentVariable.query(ctx.knex).where({ applicationId, key }).resultSize()) > 0;
  const name = held ? key : parseInput(z.strictObject({ key: envKeySchema }), { key }, "Invalid variable").key;
  const { app } = await applyChange(ctx, applicationId, [], [name], deploy, "key");
  return current(ctx.knex, app);
}
