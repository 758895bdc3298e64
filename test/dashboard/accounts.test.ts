import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { startSmtpServer, type TestSmtpServer } from "../email/smtp.ts";
import { skipBrowserTests } from "../helpers/browser.ts";
import {
  DASHBOARD_PASSWORD,
  type DashboardBrowser,
  type DashboardServer,
  openDashboard,
  startDashboardServer,
} from "../helpers/dashboard.ts";
import { linkIn, waitForMail } from "../helpers/mail.ts";

// The pages of emailed links, driven in a real Chromium with a real SMTP server: the owner invites
// a newcomer from Settings → Members, the newcomer opens the emailed link, chooses a password and is
// in; the owner forgets their password, gets the link by email, sets a new one and signs in with it.

const SKIP_BROWSER = skipBrowserTests("accounts.test.ts");
const SLOW = 60_000;

let smtp: TestSmtpServer;
let served: DashboardServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  served = await startDashboardServer("Invite Shop", "invite-shop.example", {
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_FROM: "Shop Platform <mail@shops.example>",
  });
  // Queued email is sent by a running service.
  served.t.app.start();
}, SLOW);
afterAll(async () => {
  await served.close();
  await smtp.close();
});

describe.skipIf(SKIP_BROWSER)("emailed links in a browser", () => {
  let dashboard: DashboardBrowser;
  let page: Page;

  beforeAll(async () => {
    dashboard = await openDashboard(served);
    ({ page } = dashboard);
  }, SLOW);
  afterAll(async () => {
    await dashboard?.close();
  });

  test(
    "the owner invites a newcomer as admin; the newcomer opens the emailed link, chooses a password and lands in the store; the owner sees them listed as Admin",
    async () => {
      await dashboard.signIn();
      await page.goto(`${served.base}/dashboard/settings/members`);
      await page.getByRole("heading", { name: "Members" }).waitFor();
      await page.getByRole("button", { name: "Invite", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Invite someone" });
      await dialog.getByLabel("Email").fill("newcomer@invite-shop.example");
      await dialog.getByLabel("Role").selectOption("admin");
      await dialog.getByRole("button", { name: "Send invitation" }).click();
      const pending = page.getByRole("region", { name: "Pending invitations" });
      await pending.getByRole("cell", { name: "newcomer@invite-shop.example", exact: true }).waitFor();
      await dashboard.check("members-invitation-pending");

      const [message] = await waitForMail(smtp, "newcomer@invite-shop.example");
      expect(message!.headers.subject).toBe("You are invited to join Invite Shop");
      const link = linkIn(message!, `${served.base}/dashboard/invitations/accept?token=`);

      // The newcomer, in a browser of their own.
      const newcomer = await dashboard.browser.newContext();
      try {
        const own = await newcomer.newPage();
        await own.goto(link.toString());
        await own.getByRole("heading", { name: "Join Invite Shop" }).waitFor();
        await own.getByLabel("Your name").fill("Nina Newcomer");
        await own.getByLabel("Choose a password").fill("nina's own passphrase");
        await own.getByRole("button", { name: "Create account and join" }).click();
        await own.getByRole("heading", { name: "Home" }).waitFor();
      } finally {
        await newcomer.close();
      }

      await page.reload();
      const row = page.getByRole("row", { name: /newcomer@invite-shop\.example/ });
      await row.waitFor();
      await expect(row.getByRole("cell", { name: "Admin", exact: true }).count()).resolves.toBe(1);
      await expect(row.getByRole("cell", { name: "Nina Newcomer" }).count()).resolves.toBe(1);
      await pending.getByText("No invitation waiting.").waitFor();
      await dashboard.check("members-after-invitation");

      // Removing asks first.
      await row.getByRole("button", { name: "Remove newcomer@invite-shop.example" }).click();
      await page.getByRole("alertdialog", { name: "Remove newcomer@invite-shop.example?" }).waitFor();
      await page.getByRole("button", { name: "Remove", exact: true }).click();
      await row.waitFor({ state: "detached" });
    },
    SLOW,
  );

  test(
    "forgot password: the owner asks for a link on the sign-in page, opens the email's link, sets a new password and signs in with it",
    async () => {
      await dashboard.context.clearCookies();
      await page.goto(`${served.base}/dashboard`);
      await page.getByRole("link", { name: "Forgot password?" }).click();
      await page.getByRole("heading", { name: "Reset your password" }).waitFor();
      await page.getByLabel("Email").fill(served.owner);
      await page.getByRole("button", { name: "Send me a link" }).click();
      await page.getByRole("heading", { name: "Check your email" }).waitFor();
      await dashboard.check("forgot-password-sent");

      const [message] = await waitForMail(smtp, served.owner);
      const link = linkIn(message!, `${served.base}/dashboard/reset-password?token=`);
      await page.goto(link.toString());
      await page.getByLabel("New password").fill("a fresh owner passphrase");
      await page.getByRole("button", { name: "Set new password" }).click();
      await page.getByRole("heading", { name: "Password changed" }).waitFor();
      await dashboard.check("reset-password-done");

      await page.getByRole("link", { name: "Back to sign in" }).click();
      await page.getByLabel("Email").fill(served.owner);
      await page.getByLabel("Password").fill(DASHBOARD_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").getByText("Wrong email or password").waitFor();
      await page.getByLabel("Password").fill("a fresh owner passphrase");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Home" }).waitFor();
    },
    SLOW,
  );
});
