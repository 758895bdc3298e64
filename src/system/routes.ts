import { Type } from "@sinclair/typebox";
import { ApiError } from "../core/errors.ts";
import { defineOperation } from "../core/operation.ts";
import { Timestamp } from "../core/schemas.ts";

const DegradedReason = Type.Object({
  code: Type.Union([Type.Literal("LOW_DISK_SPACE"), Type.Literal("STORAGE_FAILING")], {
    description:
      "`LOW_DISK_SPACE`: the data directory has less free space than `MIN_FREE_DISK_MB`; " +
      "`STORAGE_FAILING`: writes fail (disk full, I/O error, database busy) since `since`, until one succeeds",
  }),
  message: Type.String(),
  since: Timestamp,
});

const getHealth = defineOperation({
  method: "GET",
  path: "/v1/health",
  operationId: "getHealth",
  summary: "Health check",
  description:
    "Answers 200 while the control-plane database answers, else 503 `UNAVAILABLE`. `status` is " +
    "`degraded` (still 200: reads are served, and writes need traffic to be seen succeeding again) " +
    "while the data directory's free space is low or writes fail; `reasons` then says why.",
  tag: "Service",
  access: "public",
  agent: false,
  errors: ["UNAVAILABLE"],
  response: Type.Object({
    status: Type.Union([Type.Literal("ok"), Type.Literal("degraded")]),
    reasons: Type.Optional(Type.Array(DegradedReason)),
  }),
  handler: ({ ctx }) => {
    try {
      ctx.platform.sqlite.query("SELECT 1").get();
    } catch {
      throw new ApiError("UNAVAILABLE", "The control-plane database is not answering");
    }
    const reasons = ctx.storage.degraded();
    return reasons.length === 0 ? { status: "ok" as const } : { status: "degraded" as const, reasons };
  },
});

export const systemOperations = [getHealth];
