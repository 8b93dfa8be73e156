// Child-process entry (tests, fault figures): serve DATA_DIR (argv[2]) on loopback port argv[3] (default 0)
// with a fixed project and key, and print `{"endpoint","projectId","apiKey","pid"}` on one line.
import { EMBEDDED_SESSION_SECONDS } from "../../embedded-appwrite/embedded.ts";
import { startEmulator } from "../../embedded-appwrite/server.ts";

const emulator = await startEmulator({
  dataDir: process.argv[2] ?? "",
  port: Number(process.argv[3] ?? 0),
  projectId: "durable",
  apiKey: "durable-key",
  sessionDuration: EMBEDDED_SESSION_SECONDS,
});
const { endpoint, projectId, apiKey } = emulator;
console.log(JSON.stringify({ endpoint, projectId, apiKey, pid: process.pid }));
