import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, type Schemas, unwrap, unwrapBody, unwrapEmpty } from "./api.ts";
import { SettingsBack } from "./domains.tsx";
import { label } from "./orders.tsx";
import {
  Alert,
  Confirm,
  DataTable,
  Empty,
  Field,
  FormDialog,
  fieldError,
  formatDate,
  PageHeader,
  Pager,
  QueryState,
  SelectField,
} from "./ui.tsx";

// The organization's team: members with their roles, invitations by email (accepted from the
// emailed link), changing a role and removing someone. The API enforces who may do what (an admin
// gives no owner role and leaves owners alone; the last owner stays) and its refusal is shown.

const PAGE_SIZE = 50;
type Role = Schemas["Member"]["role"];
const ROLES: readonly (readonly [Role, string])[] = [
  ["member", "Member"],
  ["admin", "Admin"],
  ["owner", "Owner"],
];

/** Reads the members and invitations again after a change. */
function useTeamChange<T>(change: (input: T) => Promise<unknown>, done?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async () => {
      done?.();
      await queryClient.invalidateQueries({ queryKey: ["members"] });
      await queryClient.invalidateQueries({ queryKey: ["invitations"] });
    },
  });
}

function InviteMember() {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const invite = useTeamChange(
    () => unwrap(api.POST("/v1/admin/members/invitations", { body: { email: email.trim(), role } })),
    () => {
      setOpen(false);
      setEmail("");
    },
  );
  return (
    <FormDialog
      title="Invite someone"
      open={open}
      onOpenChange={(next) => {
        if (next) invite.reset();
        setOpen(next);
      }}
      trigger={
        <button type="button" className="btn btn-primary">
          Invite
        </button>
      }
      onSubmit={() => invite.mutate(undefined)}
      submit="Send invitation"
      pending={invite.isPending}
      error={invite.error}
    >
      <Field
        label="Email"
        type="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        hint="They get an email with a link to join, valid for 7 days."
        error={fieldError(invite.error, "email")}
      />
      <SelectField label="Role" value={role} onChange={(value) => setRole(value as Role)} options={ROLES} />
    </FormDialog>
  );
}

function ChangeRole({ member }: { member: Schemas["Member"] }) {
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState<Role>(member.role);
  const change = useTeamChange(
    () =>
      unwrap(
        api.PATCH("/v1/admin/members/{userId}", {
          params: { path: { userId: member.userId } },
          body: { role },
        }),
      ),
    () => setOpen(false),
  );
  return (
    <FormDialog
      title={`Change the role of ${member.email}`}
      open={open}
      onOpenChange={(next) => {
        if (next) {
          change.reset();
          setRole(member.role);
        }
        setOpen(next);
      }}
      trigger={
        <button type="button" className="btn btn-secondary" aria-label={`Change role of ${member.email}`}>
          Change role
        </button>
      }
      onSubmit={() => change.mutate(undefined)}
      submit="Save role"
      pending={change.isPending}
      error={change.error}
    >
      <SelectField label="Role" value={role} onChange={(value) => setRole(value as Role)} options={ROLES} />
    </FormDialog>
  );
}

function PendingInvitations() {
  const invitations = useQuery({
    queryKey: ["invitations"],
    queryFn: () => unwrap(api.GET("/v1/admin/members/invitations")),
  });
  const revoke = useTeamChange((id: string) =>
    unwrapEmpty(api.DELETE("/v1/admin/members/invitations/{id}", { params: { path: { id } } })),
  );
  return (
    <section aria-labelledby="pending-invitations" className="mt-8">
      <h2 id="pending-invitations" className="mb-3 text-lg font-semibold">
        Pending invitations
      </h2>
      {revoke.error && <Alert>{revoke.error.message}</Alert>}
      {!invitations.data ? (
        <QueryState query={invitations} what="invitations" />
      ) : invitations.data.length === 0 ? (
        <Empty>No invitation waiting.</Empty>
      ) : (
        <DataTable
          columns={["Email", "Role", "Invited by", "Expires", "Actions"]}
          right={["Actions"]}
          unseen={["Actions"]}
          rows={invitations.data.map((invitation) => ({
            key: invitation.id,
            cells: [
              invitation.email,
              label(invitation.role),
              invitation.invitedBy ?? "—",
              formatDate(invitation.expiresAt),
              <Confirm
                key="revoke"
                title={`Revoke the invitation of ${invitation.email}?`}
                description="The link in their email stops working at once."
                confirm="Revoke"
                onConfirm={() => revoke.mutate(invitation.id)}
                trigger={
                  <button
                    type="button"
                    className="btn btn-secondary"
                    aria-label={`Revoke the invitation of ${invitation.email}`}
                  >
                    Revoke
                  </button>
                }
              />,
            ],
          }))}
        />
      )}
    </section>
  );
}

export function Members() {
  const [page, setPage] = useState(1);
  const members = useQuery({
    queryKey: ["members", page],
    queryFn: () =>
      unwrapBody(api.GET("/v1/admin/members", { params: { query: { page, limit: PAGE_SIZE } } })),
  });
  const remove = useTeamChange((userId: string) =>
    unwrapEmpty(api.DELETE("/v1/admin/members/{userId}", { params: { path: { userId } } })),
  );
  return (
    <>
      <SettingsBack />
      <PageHeader title="Members">
        <InviteMember />
      </PageHeader>
      {remove.error && <Alert>{remove.error.message}</Alert>}
      {!members.data ? (
        <QueryState query={members} what="members" />
      ) : members.data.data.length === 0 ? (
        <Empty>No members.</Empty>
      ) : (
        <DataTable
          columns={["Email", "Name", "Role", "Joined", "Actions"]}
          right={["Actions"]}
          unseen={["Actions"]}
          rows={members.data.data.map((member) => ({
            key: member.userId,
            cells: [
              member.email,
              member.name ?? "—",
              label(member.role),
              formatDate(member.createdAt),
              <div key="actions" className="flex justify-end gap-2">
                <ChangeRole member={member} />
                <Confirm
                  title={`Remove ${member.email}?`}
                  description="They lose access to this store at once. Their account stays."
                  confirm="Remove"
                  onConfirm={() => remove.mutate(member.userId)}
                  trigger={
                    <button type="button" className="btn btn-secondary" aria-label={`Remove ${member.email}`}>
                      Remove
                    </button>
                  }
                />
              </div>,
            ],
          }))}
        />
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={members.data?.meta.total ?? 0} onPage={setPage} />
      <PendingInvitations />
    </>
  );
}
