import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseSkillFile, readSkillFile, SKILL_FILE_LIMIT } from "./skill-file.js";
import { SkillManager } from "./skill-manager.js";

describe("parseSkillFile", () => {
  it("reads the frontmatter and the body", () => {
    const skill = parseSkillFile(
      "---\nname: careful\ndescription: No sudo\nhooks:\n  PreToolUse:\n    - matcher: Bash\n---\nNever use sudo.\n",
      "/skills/careful.md",
    );
    expect(skill).toMatchObject({
      name: "careful",
      description: "No sudo",
      body: "Never use sudo.",
      hooks: { PreToolUse: [{ matcher: "Bash" }] },
      path: "/skills/careful.md",
    });
  });

  it("names a skill after its file when the frontmatter does not, and accepts no frontmatter", () => {
    expect(parseSkillFile("Just text.", "/s/plain.md")).toMatchObject({
      name: "plain",
      body: "Just text.",
    });
    expect(parseSkillFile("---\ndescription: d\n---\nx", "/s/tidy/SKILL.md").name).toBe("tidy");
  });

  it("reads frontmatter the way hooks-node does: a BOM, a ... close, trailing spaces, empty", () => {
    for (const text of [
      "\uFEFF---\ndescription: d\n---\nbody",
      "---  \r\ndescription: d\r\n...\t\r\nbody",
      "---\ndescription: d\n---",
    ]) {
      const skill = parseSkillFile(text, "/s/x.md");
      expect(skill.description, JSON.stringify(text)).toBe("d");
      expect(skill.body, JSON.stringify(text)).toBe(text.endsWith("---") ? "" : "body");
    }
    expect(parseSkillFile("---\n---\nbody", "/s/x.md").body).toBe("body");
    // A rule inside the body is not a frontmatter.
    expect(parseSkillFile("text\n---\nmore", "/s/x.md").body).toBe("text\n---\nmore");
  });

  it("refuses bad frontmatter with the field named", () => {
    expect(() => parseSkillFile("---\nname: [unclosed\n---\n", "bad.md")).toThrow(
      /bad\.md: frontmatter is not valid YAML/,
    );
    expect(() => parseSkillFile("---\nname: ../../etc\n---\n", "bad.md")).toThrow(
      /frontmatter\.name/,
    );
    expect(() => parseSkillFile("---\nhooks: 42\n---\n", "bad.md")).toThrow(/frontmatter\.hooks/);
    expect(() => parseSkillFile("---\ndescription: 7\n---\n", "bad.md")).toThrow(
      /frontmatter\.description/,
    );
  });

  it("survives a YAML alias bomb", () => {
    const bomb = `---\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n---\n`;
    expect(() => parseSkillFile(bomb, "bomb.md")).toThrow(/bomb\.md/);
  });
});

describe("SkillManager.find and readSkillFile", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "skills-")));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("finds <name>.md and <name>/SKILL.md, in folder order", async () => {
    await mkdir(path.join(dir, "one", "nested"), { recursive: true });
    await mkdir(path.join(dir, "two"));
    await writeFile(path.join(dir, "one", "a.md"), "a");
    await writeFile(path.join(dir, "one", "nested", "SKILL.md"), "n");
    await writeFile(path.join(dir, "two", "a.md"), "a2");
    const skills = new SkillManager({ dirs: [path.join(dir, "one"), path.join(dir, "two")] });
    expect(await skills.find("a")).toBe(path.join(dir, "one", "a.md"));
    expect(await skills.find("nested")).toBe(path.join(dir, "one", "nested", "SKILL.md"));
  });

  it("refuses names that could leave the skills folder, and missing skills", async () => {
    const skills = new SkillManager({ dirs: [dir] });
    for (const name of ["../etc/passwd", "a/b", "", ".", "x".repeat(101), "a\0b"]) {
      await expect(skills.find(name), name).rejects.toMatchObject({
        code: "INVALID_INPUT",
        path: ["name"],
      });
    }
    await expect(skills.find("absent")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses huge skill files and folders", async () => {
    await writeFile(path.join(dir, "big.md"), "x".repeat(SKILL_FILE_LIMIT + 1));
    await expect(readSkillFile(path.join(dir, "big.md"))).rejects.toThrow(/the limit is/);
    await expect(readSkillFile(dir)).rejects.toThrow(/not a regular file/);
    await expect(readSkillFile(path.join(dir, "none.md"))).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("refuses a FIFO at once (it would hold a thread for ever) and a file that is a symlink", async () => {
    execFileSync("mkfifo", [path.join(dir, "pipe.md")]);
    await expect(readSkillFile(path.join(dir, "pipe.md"))).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("not a regular file"),
    });
    await writeFile(path.join(dir, "secret.txt"), "---\nname: leaked\n---\nsecret");
    await symlink(path.join(dir, "secret.txt"), path.join(dir, "link.md"));
    await expect(readSkillFile(path.join(dir, "link.md"))).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: expect.stringContaining("symlink"),
    });
    await writeFile(path.join(dir, "ok.md"), "---\nname: ok\n---\nbody");
    expect((await readSkillFile(path.join(dir, "ok.md"))).name).toBe("ok");
  });
});
