/**
 * The names image files get in the images bucket (SECURITY C33; issue #26 item 9), kept apart from the image
 * checks so that `studio push` names its uploads without loading sharp.
 */

/**
 * The stored name of the image file `fileId`: `<fileId>.<extension>`, never the uploaded name (SECURITY C33)
 * nor anything of the item it illustrates. The images bucket is readable by anyone, so anyone can list it:
 * a name holding the item's slug would tell a guest the slug of an unpublished item (issue #26 item 9).
 */
export function imageFileName(fileId: string, extension: string): string {
  return `${fileId}.${extension}`;
}
