import { type AddressInfo, createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { captureIo } from '../src/tools/cli/captureIo.js';
import { runCli } from '../src/tools/cli/runCli.js';

describe('loopchart view', () => {
  it('serves the viewer on 127.0.0.1 until SIGTERM, then closes everything and exits 0', async () => {
    const capture = captureIo();
    const before = process.listenerCount('SIGTERM');
    const exit = runCli(['view', '--port', '0'], capture.io);
    await vi.waitFor(
      () => expect(capture.stdout()).toMatch(/loopchart viewer: http:\/\/127\.0\.0\.1:\d+\//),
      { timeout: 15_000 },
    );
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(capture.stdout())?.[0] as string;
    expect(capture.stdout()).toContain(`loops report to ws://${new URL(url).host}/`);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('loopchart run viewer');
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    process.emit('SIGTERM');
    expect(await exit).toBe(0);
    expect(capture.stdout()).toContain('viewer stopped');
    expect(process.listenerCount('SIGTERM')).toBe(before);
    expect(process.listenerCount('SIGINT')).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('rejects a bad port with exit code 2, and a port in use with an error', async () => {
    const bad = captureIo();
    expect(await runCli(['view', '--port', 'http'], bad.io)).toBe(2);
    expect(bad.stderr()).toMatch(
      /'--port <n>' argument 'http' is invalid\. It must be an integer from 0 to 65535\./,
    );
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const busy = captureIo();
    try {
      expect(await runCli(['view', '--port', String(port)], busy.io)).toBe(1);
      expect(busy.stderr()).toMatch(
        /^view: cannot listen on 127.0.0.1:\d+ \(port in use\); try --port 0\n$/,
      );
      expect(process.listenerCount('SIGTERM')).toBe(0);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
