/**
 * REST row of the deploy trigger (spec: Deploy trigger): `POST /api/deploy/:token`, an inbound callback row
 * (credential = the token in the path, or a provider signature over the raw body; see deploy-trigger.service.ts).
 * Other methods answer 405 with `Allow: POST`.
 */
import type { CallbackRestRoute } from "../../shared/rest-route.ts";
import type { AppServices } from "../services.ts";
import { deployTriggerDoc } from "./deploy-trigger.contract.ts";
import { handleDeployTrigger } from "./deploy-trigger.service.ts";

/** The deploy trigger row. */
export const deployTriggerRoute: CallbackRestRoute<AppServices> = {
  method: "POST",
  path: "/api/deploy/:token",
  published: true,
  credentials: "none",
  rawBody: true,
  doc: deployTriggerDoc,
  handle: (req, services) =>
    handleDeployTrigger(services, services.log.child({ route: "deploy-trigger" }), {
      token: req.params.token ?? "",
      headers: req.headers,
      rawBody: req.rawBody,
    }),
};
