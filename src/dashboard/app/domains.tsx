import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap, unwrapEmpty } from "./api.ts";
import {
  Alert,
  BackLink,
  Confirm,
  DataTable,
  Empty,
  Field,
  FormDialog,
  fieldError,
  formatDate,
  PageHeader,
  QueryState,
} from "./ui.tsx";

// The hosts a shop answers on besides {slug}.PLATFORM_DOMAIN. A host answers as soon as it is added
// (there is no DNS ownership check yet) and stops at once when removed, hence the confirmation.

export const SettingsBack = () => <BackLink to="/settings">All settings</BackLink>;

function AddDomain() {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [host, setHost] = useState("");
  const add = useMutation({
    mutationFn: () => unwrap(api.POST("/v1/admin/domains", { body: { host: host.trim() } })),
    onSuccess: () => {
      setOpen(false);
      setHost("");
      return queryClient.invalidateQueries();
    },
  });
  return (
    <FormDialog
      title="Add domain"
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="btn btn-primary">
          Add domain
        </button>
      }
      onSubmit={() => add.mutate()}
      submit="Add domain"
      pending={add.isPending}
      error={add.error}
    >
      <Field
        label="Host"
        required
        value={host}
        onChange={(e) => setHost(e.target.value)}
        placeholder="shop.example.com"
        hint="Point the host's DNS at this service; it answers for your store once added."
        error={fieldError(add.error, "host")}
      />
    </FormDialog>
  );
}

export function Domains() {
  const queryClient = useQueryClient();
  const domains = useQuery({ queryKey: ["domains"], queryFn: () => unwrap(api.GET("/v1/admin/domains")) });
  const remove = useMutation({
    mutationFn: (host: string) =>
      unwrapEmpty(api.DELETE("/v1/admin/domains/{host}", { params: { path: { host } } })),
    onSuccess: () => queryClient.invalidateQueries(),
  });
  return (
    <>
      <SettingsBack />
      <PageHeader title="Domains">
        <AddDomain />
      </PageHeader>
      {remove.error && <Alert>{remove.error.message}</Alert>}
      {!domains.data ? (
        <QueryState query={domains} what="domains" />
      ) : domains.data.length === 0 ? (
        <Empty>No domain of your own yet: the store answers only on its platform address.</Empty>
      ) : (
        <DataTable
          columns={["Host", "Added", "Actions"]}
          right={["Actions"]}
          unseen={["Actions"]}
          rows={domains.data.map((domain) => ({
            key: domain.host,
            cells: [
              <span key="host" className="font-medium">
                {domain.host}
              </span>,
              formatDate(domain.createdAt),
              <Confirm
                key="remove"
                title={`Remove ${domain.host}?`}
                description="The host stops answering for your store at once."
                confirm="Remove"
                onConfirm={() => remove.mutate(domain.host)}
                trigger={
                  <button type="button" className="btn btn-secondary" aria-label={`Remove ${domain.host}`}>
                    Remove
                  </button>
                }
              />,
            ],
          }))}
        />
      )}
    </>
  );
}
