/**
 * Visitors' submissions (spec §3, §7): community applications and contact messages, created with the
 * API-key client. The collections grant no permission to any role (docs/decisions/0001), so only the web
 * server can write them, and the documents get no permissions of their own.
 */
import { ID } from "node-appwrite";
import { COLLECTIONS, DATABASE_ID, type CommunityApplication, type ContactMessage } from "../../schemas/content.ts";
import type { AdminServices } from "./client.ts";

/** The outcome of a submission (spec §7: "A failure yields a success-false result"). */
export type SubmissionResult = { success: true; id: string } | { success: false; error: Error };

async function create(
  services: AdminServices,
  collectionId: string,
  data: Record<string, string>,
): Promise<SubmissionResult> {
  try {
    const document = await services.databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId,
      documentId: ID.unique(),
      data,
      permissions: [],
    });
    return { success: true, id: document.$id };
  } catch (error) {
    return { success: false, error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/** Stores a community application (name, email, projectIdea) in `community_applications`. */
export function createCommunityApplication(
  services: AdminServices,
  application: CommunityApplication,
): Promise<SubmissionResult> {
  const { name, email, projectIdea } = application;
  return create(services, COLLECTIONS.communityApplications, { name, email, projectIdea });
}

/** Stores a contact message (name, email, message) in `contact_messages`. */
export function createContactMessage(services: AdminServices, message: ContactMessage): Promise<SubmissionResult> {
  return create(services, COLLECTIONS.contactMessages, {
    name: message.name,
    email: message.email,
    message: message.message,
  });
}
