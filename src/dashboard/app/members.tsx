import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrapBody } from "./api.ts";
import { SettingsBack } from "./domains.tsx";
import { label } from "./orders.tsx";
import { DataTable, Empty, formatDate, PageHeader, Pager, QueryState } from "./ui.tsx";

// Read only: members are added with the command line (`commerce user create --org`); there are no
// invitations yet.

const PAGE_SIZE = 50;

export function Members() {
  const [page, setPage] = useState(1);
  const members = useQuery({
    queryKey: ["members", page],
    queryFn: () =>
      unwrapBody(api.GET("/v1/admin/members", { params: { query: { page, limit: PAGE_SIZE } } })),
  });
  return (
    <>
      <SettingsBack />
      <PageHeader title="Members" />
      {!members.data ? (
        <QueryState query={members} what="members" />
      ) : members.data.data.length === 0 ? (
        <Empty>No members.</Empty>
      ) : (
        <DataTable
          columns={["Email", "Name", "Role", "Joined"]}
          rows={members.data.data.map((member) => ({
            key: member.userId,
            cells: [member.email, member.name ?? "—", label(member.role), formatDate(member.createdAt)],
          }))}
        />
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={members.data?.meta.total ?? 0} onPage={setPage} />
      <p className="mt-4 max-w-2xl text-sm text-slate-700">
        Members are added with the command line: <code>commerce user create --org ORG_ID --role admin</code>.
      </p>
    </>
  );
}
