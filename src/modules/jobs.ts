/**
 * Every module's background jobs (`<module>.jobs.ts`), handed to the queue and the runner by src/server/start.ts.
 * To be folded into the module manifests (`src/modules/<domain>/index.ts` → `jobs`).
 */
import type { JobDefinition } from "../jobs/job-definition.ts";
import { sendMailJob } from "./mail/mail.jobs.ts";

/** The job definitions of all modules. */
export const moduleJobs: JobDefinition[] = [sendMailJob as JobDefinition];
