import type { HookType } from "../hook-type.js";
import {
  checkHttpHook,
  createHttpHandler,
  HTTP_DEFAULT_TIMEOUT_SECONDS,
  type HttpHandlerDeps,
  type HttpHookDefinition,
  httpHookShape,
} from "./http-hook.js";

/** The `http` hook type: a JSON POST of the hook input to a URL. */
export const httpHookType: HookType<
  "http",
  HttpHookDefinition,
  { http?: HttpHandlerDeps | undefined; maxOutputBytes?: number | undefined }
> = {
  type: "http",
  shape: httpHookShape,
  defaultTimeoutSeconds: HTTP_DEFAULT_TIMEOUT_SECONDS,
  describe: (d) => `POST ${d.url}`,
  check: (d) => checkHttpHook(d),
  create: (d, deps) =>
    createHttpHandler(
      d,
      deps.maxOutputBytes !== undefined
        ? { ...deps.http, maxResponseBytes: deps.maxOutputBytes }
        : deps.http,
    ),
};
