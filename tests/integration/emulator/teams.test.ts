import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Account, Query, Teams, Users } from "node-appwrite";
import { projectClient, rejection, signedInClient, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";
import { inviteSecret } from "./team-invites.ts";

let env: TestEmulator;
let alice: Teams;
let bob: Teams;
let admin: Teams;

beforeAll(async () => {
  env = await startTestEmulator();
  alice = new Teams((await signedInClient(env, "alice")).client);
  bob = new Teams((await signedInClient(env, "bob")).client);
  admin = new Teams(env.admin);
});

afterAll(async () => {
  await env.stop();
});

const URL = "http://localhost:5173/join";

/** Accept an invitation without a session, as the invitee's browser does; returns the HTTP answer. */
async function acceptAsGuest(teamId: string, membershipId: string, userId: string, secret: string) {
  return fetch(`${env.emulator.endpoint}/teams/${teamId}/memberships/${membershipId}/status`, {
    method: "PATCH",
    headers: { "content-type": "application/json", "x-appwrite-project": env.emulator.projectId },
    body: JSON.stringify({ userId, secret }),
  });
}

describe("teams (AW Modules/Teams)", () => {
  it("given a session user, when it creates a team, then it is its owner and only members see the team", async () => {
    const team = await alice.create({ teamId: "crew", name: "Crew" });
    expect(team).toMatchObject({ $id: "crew", name: "Crew", total: 1, prefs: {} });
    const members = await alice.listMemberships({ teamId: "crew" });
    expect(members.memberships).toEqual([
      expect.objectContaining({
        userId: "alice",
        userName: "alice",
        roles: ["owner"],
        confirm: true,
        teamName: "Crew",
      }),
    ]);
    expect((await alice.list()).teams.map((t) => t.$id)).toEqual(["crew"]);
    expect(await bob.list()).toEqual({ total: 0, teams: [] });
    const hidden = await rejection(bob.get({ teamId: "crew" }));
    expect([hidden.code, hidden.type]).toEqual([404, "team_not_found"]);
    const guest = await rejection(new Teams(projectClient(env)).list());
    expect([guest.code, guest.type]).toEqual([401, "general_unauthorized_scope"]);
    const taken = await rejection(bob.create({ teamId: "crew", name: "Mine" }));
    expect([taken.code, taken.type]).toEqual([409, "team_already_exists"]);
  });

  it("given an API key, then it creates teams nobody joins, sees every team, renames, sets prefs and deletes", async () => {
    const team = await admin.create({ teamId: "ops", name: "Ops" });
    expect(team.total).toBe(0);
    expect((await admin.list({ queries: [Query.equal("name", "Ops")] })).teams.map((t) => t.$id)).toEqual(["ops"]);
    expect((await admin.list({ search: "cre" })).teams.map((t) => t.$id)).toEqual(["crew"]);
    expect((await admin.updateName({ teamId: "ops", name: "Ops!" })).name).toBe("Ops!");
    expect(await admin.updatePrefs({ teamId: "ops", prefs: { tz: "UTC" } })).toEqual({ tz: "UTC" });
    expect(await admin.getPrefs({ teamId: "ops" })).toEqual({ tz: "UTC" });
    await admin.createMembership({ teamId: "ops", roles: ["viewer"], userId: "bob" });
    await admin.delete({ teamId: "ops" });
    const gone = await rejection(admin.get({ teamId: "ops" }));
    expect([gone.code, gone.type]).toEqual([404, "team_not_found"]);
    expect((await new Users(env.admin).listMemberships({ userId: "bob" })).total).toBe(0);
  });

  it("given an API key, when it invites by email, then the user is created and joins at once", async () => {
    const membership = await admin.createMembership({
      teamId: "crew",
      roles: ["editor"],
      email: "Carol@Example.com",
      name: "Carol",
    });
    expect(membership).toMatchObject({ teamId: "crew", userName: "Carol", userEmail: "carol@example.com" });
    expect(membership).toMatchObject({ confirm: true, roles: ["editor"] });
    expect(membership.joined).not.toBe("");
    expect(membership).not.toHaveProperty("secret");
    expect((await admin.get({ teamId: "crew" })).total).toBe(2);
    const again = await rejection(admin.createMembership({ teamId: "crew", roles: [], userId: membership.userId }));
    expect([again.code, again.type]).toEqual([409, "membership_already_confirmed"]);
    const nobody = await rejection(admin.createMembership({ teamId: "crew", roles: [], userId: "nobody" }));
    expect([nobody.code, nobody.type]).toEqual([404, "user_not_found"]);
    const badRole = await rejection(admin.createMembership({ teamId: "crew", roles: ["-x"], userId: "bob" }));
    expect([badRole.code, badRole.type]).toEqual([400, "general_argument_invalid"]);
  });

  it("given an owner's session, when it invites, then the membership is pending until accepted with the secret", async () => {
    const invite = await alice.createMembership({
      teamId: "crew",
      roles: ["viewer"],
      email: "dan@example.com",
      url: URL,
    });
    expect(invite).toMatchObject({ confirm: false, joined: "", roles: ["viewer"], userEmail: "dan@example.com" });
    expect(invite).not.toHaveProperty("secret");
    expect((await alice.get({ teamId: "crew" })).total).toBe(2);
    const noUrl = await rejection(alice.createMembership({ teamId: "crew", roles: [], email: "x@example.com" }));
    expect([noUrl.code, noUrl.type, noUrl.message]).toEqual([400, "general_argument_invalid", "URL is required"]);
    const evil = await rejection(
      alice.createMembership({ teamId: "crew", roles: [], email: "x@example.com", url: "https://evil.test/" }),
    );
    expect([evil.code, evil.type]).toEqual([400, "general_argument_invalid"]);

    const secret = inviteSecret(env.dataDir, invite.$id);
    const wrong = await acceptAsGuest("crew", invite.$id, invite.userId, "not-the-secret");
    expect([wrong.status, ((await wrong.json()) as { type: string }).type]).toEqual([401, "team_invalid_secret"]);
    const other = await rejection(
      bob.updateMembershipStatus({ teamId: "crew", membershipId: invite.$id, userId: invite.userId, secret }),
    );
    expect([other.code, other.type]).toEqual([401, "team_invite_mismatch"]);

    const accepted = await acceptAsGuest("crew", invite.$id, invite.userId, secret);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ $id: invite.$id, confirm: true, userId: invite.userId });
    const fallback = JSON.parse(accepted.headers.get("x-fallback-cookies") ?? "{}") as Record<string, string>;
    const session = fallback[`a_session_${env.emulator.projectId}`] ?? "";
    const dan = projectClient(env).setSession(session);
    expect(await new Account(dan).get()).toMatchObject({ $id: invite.userId, emailVerification: true });
    expect((await new Teams(dan).get({ teamId: "crew" })).total).toBe(3);
    const twice = await rejection(
      new Teams(dan).updateMembershipStatus({
        teamId: "crew",
        membershipId: invite.$id,
        userId: invite.userId,
        secret,
      }),
    );
    expect([twice.code, twice.type]).toEqual([409, "membership_already_confirmed"]);
  });

  it("given a member who is not an owner, then it may not invite, change roles or remove others", async () => {
    const bobJoins = await admin.createMembership({ teamId: "crew", roles: ["editor"], userId: "bob" });
    const invite = await rejection(
      bob.createMembership({ teamId: "crew", roles: ["owner"], email: "mallory@example.com", url: URL }),
    );
    expect([invite.code, invite.type]).toEqual([401, "user_unauthorized"]);
    const owner = (await bob.listMemberships({ teamId: "crew", queries: [Query.equal("userId", "alice")] }))
      .memberships[0];
    const promote = await rejection(
      bob.updateMembership({ teamId: "crew", membershipId: bobJoins.$id, roles: ["owner"] }),
    );
    expect([promote.code, promote.type]).toEqual([401, "user_unauthorized"]);
    const remove = await rejection(bob.deleteMembership({ teamId: "crew", membershipId: owner?.$id ?? "" }));
    expect([remove.code, remove.type]).toEqual([401, "user_unauthorized"]);
    const rename = await rejection(bob.updateName({ teamId: "crew", name: "Bob's" }));
    expect([rename.code, rename.type]).toEqual([401, "user_unauthorized"]);
    const unknown = await rejection(alice.deleteMembership({ teamId: "crew", membershipId: "nope" }));
    expect([unknown.code, unknown.type]).toEqual([404, "team_invite_not_found"]);
  });

  it("given an owner, then it updates roles and removes members; a member may leave", async () => {
    const bobs = (await alice.listMemberships({ teamId: "crew", queries: [Query.equal("userId", "bob")] }))
      .memberships[0];
    const updated = await alice.updateMembership({ teamId: "crew", membershipId: bobs?.$id ?? "", roles: ["owner"] });
    expect(updated.roles).toEqual(["owner"]);
    expect((await bob.updateName({ teamId: "crew", name: "Crew 2" })).name).toBe("Crew 2");
    await bob.deleteMembership({ teamId: "crew", membershipId: bobs?.$id ?? "" });
    const gone = await rejection(bob.get({ teamId: "crew" }));
    expect([gone.code, gone.type]).toEqual([404, "team_not_found"]);
    const editors = await alice.listMemberships({ teamId: "crew", queries: [Query.contains("roles", "editor")] });
    expect(editors.memberships.map((m) => m.userEmail)).toEqual(["carol@example.com"]);
    await alice.deleteMembership({ teamId: "crew", membershipId: editors.memberships[0]?.$id ?? "" });
    expect((await alice.get({ teamId: "crew" })).total).toBe(2);
    await alice.delete({ teamId: "crew" });
    expect((await alice.list()).total).toBe(0);
  });
});
