import { constants, type Dirent, type Stats } from "node:fs";
import { type FileHandle, mkdir, open, opendir, readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isInside } from "./read-regular-file.js";
import { checkPathInput, WorkspacePathError } from "./workspace-path-error.js";

/**
 * Symlinks one path may pass through before it is refused, however they chain (the kernel's
 * own limit), so a loop of symlinks cannot keep a tool busy.
 */
export const MAX_SYMLINK_HOPS = 40;

/**
 * What a file is opened for:
 * - `read`: a regular file, read only.
 * - `write`: a regular file, created if missing (with its missing parent folders), written.
 * - `update`: an existing regular file, read and written.
 * - `folder`: a folder, to list.
 */
export type OpenIntent = "read" | "write" | "update" | "folder";

/** How `open` on a {@link WorkspaceRoot} opens a path, and what its errors name. */
export interface OpenOptions {
  /** The argument the path came from (`["args", "file_path"]`), named in errors. */
  readonly field: readonly (string | number)[];
  /**
   * Resolve symlinks whose target stays inside the working directory (default `true`). A
   * search that walks a tree passes `false`: a symlink there is refused, never followed.
   */
  readonly followSymlinks?: boolean;
  /** Accept a folder where a `read` expects a regular file. */
  readonly allowFolder?: boolean;
}

/** Options of {@link WorkspaceRoot.open}. */
export interface WorkspaceRootOptions {
  /**
   * How error messages name the root, for the people and models who read them (default
   * `"the working directory"`).
   */
  readonly name?: string;
}

/** A file or folder opened inside the working directory. The caller closes `handle`. */
export interface OpenedEntry {
  /** The open file or folder; the caller closes it. */
  readonly handle: FileHandle;
  /** `fstat` of the handle: what was opened, not what the name points to now. */
  readonly stat: Stats;
  /** The path that was opened, relative to the root, symlinks resolved (`""` for the root). */
  readonly relative: string;
}

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } =
  constants;
// O_NONBLOCK: opening a FIFO must not wait for a writer (that would hold a libuv thread for
// ever); what was opened is checked with fstat before a byte is read. No O_TRUNC: a file is
// truncated through its handle, after the checks.
const FILE_FLAGS = O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
const FOLDER_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
const FLAGS: Record<OpenIntent, number> = {
  read: O_RDONLY | FILE_FLAGS,
  write: O_WRONLY | O_CREAT | FILE_FLAGS,
  update: O_RDWR | FILE_FLAGS,
  folder: FOLDER_FLAGS,
};

/** The path through which the kernel reaches an open descriptor's object, not its name. */
const fdPath = (fd: number) => `/proc/self/fd/${fd}`;

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function describe(stat: Stats): string {
  if (stat.isDirectory()) return "a folder";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  if (stat.isSymbolicLink()) return "a symlink";
  return "a special file";
}

/** A symlink met on the way: where it sits in the path, and what it says. */
interface SymlinkStep {
  readonly index: number;
  readonly target: string;
}

/**
 * A session's working directory, held open, through which every file tool opens paths.
 *
 * Checking a path and then opening it by name is a race: between the two, a folder on the path
 * can be swapped for a symlink to somewhere else, and `O_NOFOLLOW` only guards the last
 * component. So nothing is opened by name. The root is opened once; each component is then
 * opened relative to the descriptor of the folder before it (`/proc/self/fd/<fd>/<name>`, Linux's
 * `openat` as Node can spell it) with `O_NOFOLLOW`, so the object checked is the object used.
 * A symlink is not followed by the kernel: its target is read and, if it stays inside, the walk
 * starts again from the root with the target in its place; a target outside is refused. As a
 * last check the opened descriptor's real path must lie inside the root.
 *
 * The other design (open by name, then verify `/proc/self/fd/N`) was not chosen because a
 * write would have created or truncated the file before the verification could refuse it.
 *
 * Other platforms (macOS, the BSDs) have no `/proc/self/fd`, and Node has no `openat`: there
 * the same walk opens each component by name with `O_NOFOLLOW`, and the opened object's identity
 * (device and inode) must equal that of its real path inside the root. That refuses every
 * symlink and every swap it sees, but a folder swapped and swapped back between two steps can
 * still go unseen: the race is closed on Linux and narrowed elsewhere.
 *
 * @example
 * ```ts
 * const text = await WorkspaceRoot.use(workdir, async (root) => {
 *   const file = await root.open("notes.md", "read", { field: ["args", "file_path"] });
 *   try {
 *     return await file.handle.readFile("utf8");
 *   } finally {
 *     await file.handle.close();
 *   }
 * });
 * ```
 */
export class WorkspaceRoot {
  private constructor(
    private readonly root: FileHandle,
    /** The working directory's real path. */
    readonly path: string,
    /** The working directory as the host spelled it, for absolute paths given that way. */
    private readonly given: string,
    /** No `/proc/self/fd` here: components are opened by name (see the class comment). */
    private readonly byName: boolean,
    /** The root as messages name it. */
    private readonly name: string,
  ) {}

  /**
   * Open the working directory. Throws a `WorkspacePathError` (`NOT_FOUND`, or `TOOL_FAILED`)
   * if it cannot be opened.
   */
  static async open(workdir: string, options: WorkspaceRootOptions = {}): Promise<WorkspaceRoot> {
    const cannot = (error: unknown) => {
      const errno = errnoOf(error);
      return new WorkspacePathError(
        errno === "ENOENT" ? "NOT_FOUND" : "TOOL_FAILED",
        `${JSON.stringify(workdir)} cannot be opened as a working directory (${errno ?? String(error)})`,
        { path: [], cause: error, ...(errno === undefined ? {} : { errno }) },
      );
    };
    const handle = await open(workdir, O_RDONLY | O_DIRECTORY).catch((error: unknown) => {
      throw cannot(error);
    });
    try {
      const byName = process.platform !== "linux";
      const real = await (byName ? realpath(workdir) : readlink(fdPath(handle.fd))).catch(
        (error: unknown) => {
          throw cannot(error);
        },
      );
      const name = options.name ?? "the working directory";
      return new WorkspaceRoot(handle, real, path.resolve(workdir), byName, name);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Open the working directory, run `fn`, and close it whatever happens. */
  static async use<T>(
    workdir: string,
    fn: (root: WorkspaceRoot) => Promise<T>,
    options: WorkspaceRootOptions = {},
  ): Promise<T> {
    const root = await WorkspaceRoot.open(workdir, options);
    try {
      return await fn(root);
    } finally {
      await root.close();
    }
  }

  /** Closes the working directory's own handle; paths opened from it stay open. */
  close(): Promise<void> {
    return this.root.close();
  }

  /**
   * Open `input` (relative to the working directory, or absolute inside it) for `intent`.
   * Refuses with `OUTSIDE_WORKSPACE` anything that is or leads outside (`..`, absolute paths
   * elsewhere, symlinks out, a folder moved out meanwhile), with `INVALID_INPUT` anything that
   * is not the kind asked for (a FIFO, a socket, a device, a folder where a file is wanted), and
   * with `NOT_FOUND` what does not exist; every error is a `WorkspacePathError` naming
   * `options.field`.
   */
  async open(input: unknown, intent: OpenIntent, options: OpenOptions): Promise<OpenedEntry> {
    const { field } = options;
    checkPathInput(input, field);
    const { refuse, outside } = this.refusals(input, field);

    let parts = this.partsOf(input);
    if (parts === undefined) throw outside(`is outside ${this.name}`);
    for (let hops = 0; ; hops++) {
      let step: FileHandle | SymlinkStep;
      try {
        step = await this.walk(parts, intent);
      } catch (error) {
        throw this.openError(error, input, intent, field);
      }
      if (!("index" in step)) return this.checked(step, parts, intent, options, refuse, outside);

      const link = parts.slice(0, step.index + 1).join("/");
      if (options.followSymlinks === false) {
        throw outside(`passes through the symlink ${JSON.stringify(link)}, which is not followed`);
      }
      if (hops === MAX_SYMLINK_HOPS) {
        throw refuse("INVALID_INPUT", `passes through more than ${MAX_SYMLINK_HOPS} symlinks`);
      }
      // The folders before the link were opened without following anything, so their joined
      // names are the link's real location, and a relative target resolves against them.
      const here = path.join(this.path, ...parts.slice(0, step.index));
      const target = path.resolve(here, step.target);
      if (!isInside(this.path, target)) {
        throw outside(`leads outside ${this.name} through the symlink ${JSON.stringify(link)}`);
      }
      parts = [...split(path.relative(this.path, target)), ...parts.slice(step.index + 1)];
    }
  }

  /**
   * Open the folder `name` (one name, no `/`) inside `parent`, a folder this root opened, and
   * follow nothing: on Linux through the parent's descriptor, so walking a tree costs one open
   * per folder, not one per folder on its path. The same checks as {@link WorkspaceRoot.open}
   * apply (what was opened must be a folder whose real path lies inside), and the same errors
   * are thrown; a symlink in its place is refused with `OUTSIDE_WORKSPACE`.
   */
  async openFolderIn(
    parent: OpenedEntry,
    name: string,
    options: Pick<OpenOptions, "field">,
  ): Promise<OpenedEntry> {
    const { field } = options;
    const parts = [...split(parent.relative), name];
    const input = parts.join("/");
    const { refuse, outside } = this.refusals(input, field);
    if (name === "" || name === "." || name === ".." || name.includes("/")) {
      throw refuse("INVALID_INPUT", "is not one folder name");
    }
    const at = this.byName ? path.join(this.path, ...parts) : `${fdPath(parent.handle.fd)}/${name}`;
    let handle: FileHandle;
    try {
      handle = await open(at, FOLDER_FLAGS);
    } catch (error) {
      // O_NOFOLLOW answers ELOOP for a symlink, O_DIRECTORY answers ENOTDIR: either may be one.
      const code = errnoOf(error);
      if ((code === "ELOOP" || code === "ENOTDIR") && (await readlink(at).catch(() => false))) {
        throw outside("is a symlink, which is not followed");
      }
      throw this.openError(error, input, "folder", field);
    }
    return this.checked(handle, parts, "folder", options, refuse, outside);
  }

  /** The errors `open` refuses `input` with, naming `field`. */
  private refusals(input: string, field: readonly (string | number)[]) {
    const refuse = (
      reason: "OUTSIDE_WORKSPACE" | "INVALID_INPUT" | "NOT_FOUND",
      why: string,
      errno?: string,
    ) =>
      new WorkspacePathError(reason, `${field.join(".")}: ${JSON.stringify(input)} ${why}`, {
        path: field,
        ...(errno === undefined ? {} : { errno }),
      });
    const outside = (why: string) =>
      refuse("OUTSIDE_WORKSPACE", `${why}; tools may only touch files inside ${this.name}`);
    return { refuse, outside };
  }

  /** An open's failure as the `WorkspacePathError` that says what went wrong with `input`. */
  private openError(
    error: unknown,
    input: string,
    intent: OpenIntent,
    field: readonly (string | number)[],
  ): unknown {
    const { refuse, outside } = this.refusals(input, field);
    switch (errnoOf(error)) {
      case "ENOENT":
        return refuse("NOT_FOUND", "does not exist", "ENOENT");
      case "ENOTDIR":
        return intent === "folder"
          ? refuse("INVALID_INPUT", "is not a folder")
          : refuse("NOT_FOUND", "does not exist (a part of it is not a folder)", "ENOTDIR");
      case "ELOOP":
        return outside("turned into a symlink while it was being opened");
      case "EISDIR":
        return refuse("INVALID_INPUT", "is a folder, not a regular file");
      case "ENXIO":
        return refuse("INVALID_INPUT", "is not a regular file");
      default: {
        // Not the errno's own message: it names the /proc path, not the user's.
        const code = errnoOf(error);
        if (code === undefined) return error;
        return new WorkspacePathError(
          "TOOL_FAILED",
          `${field.join(".")}: ${JSON.stringify(input)} cannot be opened (${code})`,
          { path: field, cause: error, errno: code },
        );
      }
    }
  }

  /** `input` as folder names below the root, `..` resolved; undefined when it lands outside. */
  private partsOf(input: string): string[] | undefined {
    for (const base of [this.path, this.given]) {
      const candidate = path.resolve(base, input);
      if (isInside(base, candidate)) return split(path.relative(base, candidate));
    }
    return undefined;
  }

  /**
   * Open `parts` one component at a time from the root, following nothing. Answers the opened
   * handle, or the first symlink on the way (which the caller resolves).
   */
  private async walk(
    parts: readonly string[],
    intent: OpenIntent,
  ): Promise<FileHandle | SymlinkStep> {
    if (parts.length === 0) {
      // The root itself: through its descriptor, which is the root whatever its name is now.
      const root = this.byName ? this.path : fdPath(this.root.fd);
      return open(root, FLAGS[intent] & ~(O_NOFOLLOW | O_CREAT));
    }
    let parent: FileHandle | undefined;
    try {
      for (let i = 0; i < parts.length; i++) {
        const name = parts[i]!;
        // Never produced by partsOf; refused here too so the walk cannot climb whatever it is fed.
        if (name === "." || name === ".." || name.includes("/")) {
          throw Object.assign(new Error(`unexpected path component ${name}`), { code: "EINVAL" });
        }
        const at = this.byName
          ? path.join(this.path, ...parts.slice(0, i + 1))
          : `${fdPath((parent ?? this.root).fd)}/${name}`;
        const last = i === parts.length - 1;
        let next: FileHandle;
        try {
          next = last
            ? await open(at, FLAGS[intent], 0o644)
            : await openFolder(at, intent === "write");
        } catch (error) {
          // O_NOFOLLOW answers ELOOP for a symlink, O_DIRECTORY answers ENOTDIR: either may be
          // one. readlink tells (EINVAL: not a symlink, the error stands).
          const code = errnoOf(error);
          if (code !== "ELOOP" && code !== "ENOTDIR") throw error;
          const target = await readlink(at).catch(() => undefined);
          if (target === undefined) throw error;
          return { index: i, target };
        }
        await parent?.close();
        parent = next;
      }
      const opened = parent!;
      parent = undefined;
      return opened;
    } finally {
      await parent?.close();
    }
  }

  /** Check what `handle` really is and where it really is before anyone reads or writes it. */
  private async checked(
    handle: FileHandle,
    parts: readonly string[],
    intent: OpenIntent,
    options: OpenOptions,
    refuse: (reason: "INVALID_INPUT", why: string) => WorkspacePathError,
    outside: (why: string) => WorkspacePathError,
  ): Promise<OpenedEntry> {
    try {
      const stat = await handle.stat();
      // A folder on the path moved out of the working directory mid-walk still has its
      // descriptor; its real path tells.
      const real = this.byName
        ? await this.realPathByName(parts, stat)
        : await readlink(fdPath(handle.fd));
      if (real === undefined || !isInside(this.path, real)) {
        throw outside(`was moved outside ${this.name} while it was being opened`);
      }
      const folderOk = intent === "folder" || (intent === "read" && options.allowFolder === true);
      if (!(stat.isFile() || (folderOk && stat.isDirectory()))) {
        throw refuse(
          "INVALID_INPUT",
          intent === "folder" ? "is not a folder" : `is ${describe(stat)}, not a regular file`,
        );
      }
      return { handle, stat, relative: parts.join("/") };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * The entries of a folder opened with intent `folder`: read through its descriptor on Linux,
   * so a folder swapped after the open is not the one listed; by its name elsewhere.
   */
  async list(folder: OpenedEntry): Promise<Dirent[]> {
    const at = this.byName ? path.join(this.path, folder.relative) : fdPath(folder.handle.fd);
    const entries: Dirent[] = [];
    for await (const entry of await opendir(at)) entries.push(entry);
    return entries;
  }

  /**
   * Where the opened object really is, without `/proc`: the real path of its name, if that path
   * is still the same object (device and inode); undefined when it no longer is.
   */
  private async realPathByName(
    parts: readonly string[],
    opened: Stats,
  ): Promise<string | undefined> {
    try {
      const real = await realpath(path.join(this.path, ...parts));
      const now = await stat(real);
      return now.dev === opened.dev && now.ino === opened.ino ? real : undefined;
    } catch {
      return undefined;
    }
  }
}

function split(relative: string): string[] {
  return relative.split(path.sep).filter((part) => part !== "");
}

/**
 * Open a folder on the way, creating it when asked. mkdir never follows a symlink in its last
 * component, so it cannot create anything outside; a symlink there answers EEXIST, then the
 * open answers ENOTDIR and the walk treats it as the symlink it is.
 */
async function openFolder(at: string, create: boolean): Promise<FileHandle> {
  try {
    return await open(at, FOLDER_FLAGS);
  } catch (error) {
    if (!create || errnoOf(error) !== "ENOENT") throw error;
  }
  await mkdir(at).catch((error: unknown) => {
    if (errnoOf(error) !== "EEXIST") throw error;
  });
  return open(at, FOLDER_FLAGS);
}
