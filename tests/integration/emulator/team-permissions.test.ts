import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Permission, Role, Storage, TablesDB, Teams } from "node-appwrite";
import type { Client } from "node-appwrite";
import { InputFile } from "node-appwrite/file";
import { rejection, signedInClient, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";
import { rawRealtime, until } from "./realtime-client.ts";

// `team:<id>` and `team:<id>/<role>` roles (REFERENCE §6) through rows, files and realtime.
let env: TestEmulator;
const users: Record<string, { client: Client; secret: string }> = {};
const t = { databaseId: "db", tableId: "notes" };
const row = (rowId: string) => ({ ...t, rowId });

/** The signed-in client of `name` (set up in `beforeAll`). */
function client(name: string): Client {
  const user = users[name];
  if (!user) throw new Error(`no user ${name}`);
  return user.client;
}

beforeAll(async () => {
  env = await startTestEmulator();
  for (const name of ["alice", "bob", "dave", "eve"]) users[name] = await signedInClient(env, name);
  const tables = new TablesDB(env.admin);
  await tables.create({ databaseId: "db", name: "DB" });
  await tables.createTable({
    ...t,
    name: "Notes",
    permissions: [Permission.create(Role.team("crew"))],
    rowSecurity: true,
  });
  await tables.createStringColumn({ ...t, key: "text", size: 64, required: false });
  // Alice owns "crew"; the key adds Bob as an editor and Dave as a viewer; Eve stays outside.
  await new Teams(client("alice")).create({ teamId: "crew", name: "Crew" });
  const teams = new Teams(env.admin);
  await teams.createMembership({ teamId: "crew", roles: ["editor"], userId: "bob" });
  await teams.createMembership({ teamId: "crew", roles: ["viewer"], userId: "dave" });
  await tables.createRow({ ...row("team"), data: { text: "crew" }, permissions: [Permission.read(Role.team("crew"))] });
  await tables.createRow({
    ...row("editors"),
    data: { text: "editors" },
    permissions: [Permission.read(Role.team("crew", "editor"))],
  });
  await tables.createRow({
    ...row("owned"),
    data: { text: "v1" },
    permissions: [Permission.read(Role.team("crew")), Permission.update(Role.team("crew", "owner"))],
  });
});

afterAll(async () => {
  await env.stop();
});

const as = (name: string) => new TablesDB(client(name));

describe("team roles in permission checks", () => {
  it("given read(team:crew), then members read the row and a non-member gets 404", async () => {
    expect((await as("bob").getRow(row("team")))["text"]).toBe("crew");
    expect((await as("dave").getRow(row("team")))["text"]).toBe("crew");
    const outsider = await rejection(as("eve").getRow(row("team")));
    expect([outsider.code, outsider.type]).toEqual([404, "row_not_found"]);
  });

  it("given read(team:crew/editor), then only the member with role editor reads or lists it", async () => {
    expect((await as("bob").getRow(row("editors")))["text"]).toBe("editors");
    const viewer = await rejection(as("dave").getRow(row("editors")));
    expect([viewer.code, viewer.type]).toEqual([404, "row_not_found"]);
    expect((await as("dave").listRows(t)).rows.map((r) => r.$id)).toEqual(["team", "owned"]);
    expect((await as("bob").listRows(t)).rows.map((r) => r.$id)).toEqual(["team", "editors", "owned"]);
    expect((await as("eve").listRows(t)).total).toBe(0);
  });

  it("given update(team:crew/owner), then the owner updates the row and a plain member gets 401", async () => {
    const updated = await as("alice").updateRow({ ...row("owned"), data: { text: "v2" } });
    expect(updated["text"]).toBe("v2");
    const member = await rejection(as("bob").updateRow({ ...row("owned"), data: { text: "hacked" } }));
    expect([member.code, member.type]).toEqual([401, "user_unauthorized"]);
  });

  it("given create(team:crew) on the table, then a member creates rows granting the team roles it holds, no others", async () => {
    const granted = await as("bob").createRow({
      ...row("bobs"),
      data: { text: "b" },
      permissions: [Permission.read(Role.team("crew", "editor"))],
    });
    expect(granted.$permissions).toEqual(['read("team:crew/editor")']);
    const foreign = await rejection(
      as("bob").createRow({ ...row("x"), data: { text: "x" }, permissions: [Permission.read(Role.team("other"))] }),
    );
    expect([foreign.code, foreign.type]).toEqual([401, "user_unauthorized"]);
    const outsider = await rejection(as("eve").createRow({ ...row("y"), data: { text: "y" } }));
    expect([outsider.code, outsider.type]).toEqual([401, "user_unauthorized"]);
  });

  it("given a file readable by team:crew, then a member reads it and a non-member gets 404", async () => {
    const storage = new Storage(env.admin);
    await storage.createBucket({ bucketId: "docs", name: "Docs", permissions: [], fileSecurity: true });
    await storage.createFile({
      bucketId: "docs",
      fileId: "plan",
      file: InputFile.fromBuffer(Buffer.from("plan"), "plan.txt"),
      permissions: [Permission.read(Role.team("crew"))],
    });
    expect((await new Storage(client("dave")).getFile({ bucketId: "docs", fileId: "plan" })).name).toBe("plan.txt");
    const outsider = await rejection(new Storage(client("eve")).getFile({ bucketId: "docs", fileId: "plan" }));
    expect([outsider.code, outsider.type]).toEqual([404, "storage_file_not_found"]);
  });

  it("given realtime subscribers to rows, then a member gets a team row's event, a non-member not until it joins", async () => {
    const query = `project=${env.emulator.projectId}&channels[]=rows`;
    const cookie = (name: string) => ({ cookie: `a_session_${env.emulator.projectId}=${users[name]?.secret}` });
    const member = rawRealtime(env.emulator.endpoint, query, cookie("dave"));
    const outsider = rawRealtime(env.emulator.endpoint, query, cookie("eve"));
    await member.next("connected");
    await outsider.next("connected");
    const tables = new TablesDB(env.admin);
    const ids = (socket: typeof member) =>
      socket.messages.filter((m) => m.type === "event").map((m) => (m.data!["payload"] as { $id: string }).$id);
    await tables.createRow({ ...row("rt1"), data: { text: "1" }, permissions: [Permission.read(Role.team("crew"))] });
    await tables.createRow({ ...row("pub"), data: { text: "p" }, permissions: [Permission.read(Role.any())] });
    await until(() => (ids(member).length >= 2 ? true : undefined), "the member's events");
    await until(() => (ids(outsider).length >= 1 ? true : undefined), "the outsider's public event");
    expect(ids(member)).toEqual(["rt1", "pub"]);
    expect(ids(outsider)).toEqual(["pub"]);

    // Eve joins: her open connection takes the team's roles from then on.
    await new Teams(env.admin).createMembership({ teamId: "crew", roles: [], userId: "eve" });
    await tables.createRow({ ...row("rt2"), data: { text: "2" }, permissions: [Permission.read(Role.team("crew"))] });
    await until(() => (ids(outsider).includes("rt2") ? true : undefined), "the new member's team event");
    expect(ids(outsider)).toEqual(["pub", "rt2"]);
    member.close();
    outsider.close();
  });
});
