// The emulator thread's entry: a worker does not inherit the loader hooks `tsx` registered in the main
// thread, so it registers them itself, then runs the worker side of `thread.ts`.
import { register } from "tsx/esm/api";

register();
await import("./thread.ts");
