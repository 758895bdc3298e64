import type { Strings } from "../locale.ts";
import { facts, paragraph } from "../render.ts";
import { type ShopNoticeData, shopNoticeTemplate } from "../shop-notice.ts";

export interface WebhookFailingData extends ShopNoticeData {
  endpointUrl: string;
  /** When the first delivery of the current run of failures failed (ISO 8601). */
  failingSince: string;
  /** The HTTP status of the last attempt; null when no answer came (refused, timed out). */
  lastStatus: number | null;
}

const STRINGS: Strings<{
  subject: string;
  title: string;
  body: string;
  endpoint: string;
  since: string;
  status: string;
  noAnswer: string;
  fix: string;
}> = {
  en: {
    subject: "A webhook endpoint is failing",
    title: "Webhook deliveries are failing",
    body: "Events to this endpoint are not being delivered:",
    endpoint: "Endpoint",
    since: "Failing since",
    status: "Last answer",
    noAnswer: "no answer",
    fix: "Deliveries are retried. Check that the endpoint is up and answers with a 2xx status.",
  },
  pt: {
    subject: "Um endpoint de webhooks está a falhar",
    title: "As entregas de webhooks estão a falhar",
    body: "Os eventos para este endpoint não estão a ser entregues:",
    endpoint: "Endpoint",
    since: "A falhar desde",
    status: "Última resposta",
    noAnswer: "sem resposta",
    fix: "As entregas são repetidas. Verifique se o endpoint está ativo e responde com um estado 2xx.",
  },
};

/** To the shop, when deliveries to one of its webhook endpoints keep failing. */
export const webhookFailing = shopNoticeTemplate<WebhookFailingData>(
  ({ endpointUrl, failingSince, lastStatus }, l) => {
    const t = STRINGS[l.lang];
    return {
      subject: t.subject,
      title: t.title,
      blocks: [
        paragraph(t.body),
        facts([
          { label: t.endpoint, value: endpointUrl },
          { label: t.since, value: l.dateTime(failingSince) },
          { label: t.status, value: lastStatus === null ? t.noAnswer : `HTTP ${lastStatus}` },
        ]),
        paragraph(t.fix),
      ],
    };
  },
);
