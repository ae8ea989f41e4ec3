import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface CpuSample {
  /** µs of user + system CPU the process has used so far. */
  micros: number;
  rss: number;
}

/** A server process the bench spawned, with its IPC control channel (servers/control.ts). */
export class ServerProcess {
  private nextId = 1;
  private constructor(
    readonly name: string,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {}

  static async start(name: string, script: string, env: Record<string, string>, execArgv: string[] = []): Promise<ServerProcess> {
    const child = fork(join(__dirname, 'servers', script), [], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s`)), 60_000);
      child.once('exit', (code) => reject(new Error(`${name} exited with code ${code} before it was ready`)));
      child.on('message', (m: { type?: string; port?: number }) => {
        if (m?.type === 'ready') {
          clearTimeout(timer);
          resolve(m.port as number);
        }
      });
    });
    child.removeAllListeners('exit');
    return new ServerProcess(name, port, child);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private rpc<T>(type: string): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no answer to ${type}`)), 30_000);
      const onMessage = (m: { type?: string; id?: number }) => {
        if (m?.type === type && m.id === id) {
          clearTimeout(timer);
          this.child.off('message', onMessage);
          resolve(m as T);
        }
      };
      this.child.on('message', onMessage);
      this.child.send({ type, id });
    });
  }

  async cpu(): Promise<CpuSample> {
    const m = await this.rpc<{ usage: NodeJS.CpuUsage; rss: number }>('cpu');
    return { micros: m.usage.user + m.usage.system, rss: m.rss };
  }

  async introspection(): Promise<unknown> {
    return (await this.rpc<{ introspection: unknown }>('schema')).introspection;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'stop' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
