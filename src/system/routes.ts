import { Type } from "@sinclair/typebox";
import { ApiError } from "../core/errors.ts";
import { defineOperation } from "../core/operation.ts";

export const getHealth = defineOperation({
  method: "GET",
  path: "/v1/health",
  operationId: "getHealth",
  summary: "Health check",
  description: "Answers 200 when the control-plane database answers, else 503 `UNAVAILABLE`.",
  tag: "Service",
  access: "public",
  agent: false,
  errors: ["UNAVAILABLE"],
  response: Type.Object({ status: Type.Literal("ok") }),
  handler: ({ app }) => {
    try {
      app.platform.sqlite.query("SELECT 1").get();
    } catch {
      throw new ApiError("UNAVAILABLE", "The control-plane database is not answering");
    }
    return { status: "ok" as const };
  },
});

export const systemOperations = [getHealth];
