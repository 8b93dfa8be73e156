#!/usr/bin/env node
// `studio` as an installed bin: registers tsx's loader, then runs the TypeScript entry.
import { register } from "tsx/esm/api";

register();
await import("./studio.ts");
