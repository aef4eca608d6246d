import { attackConfig } from "../../vitest.shared.ts";
export default attackConfig({ name: "demo-agent" });
