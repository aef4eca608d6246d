import { nodeAndBrowserConfig } from "../../vitest.shared.ts";

// Core's unit tests run in Node and again in real Chromium: proof that core is platform-free.
export default nodeAndBrowserConfig({ name: "core" });
