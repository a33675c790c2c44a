// Screenshots of each verdict state of the page's one scale (tests/page/states.mjs), taken in
// headless Chromium against the built edge worker (target/worker; pkg-config/build.sh) in
// workerd, with no network. Writes <dir>/verdict-<level>.png (panel 1) and
// <dir>/verdict-<level>-policy.png (panel 1's policy section, NVIDIA's first policy applied,
// for the authentic states); <dir> is the first argument, else tests/artifacts/screens/.
//
//   node tests/page/screens.mjs /work/wt/screens
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { launchBrowser, openPage } from '../js/support/browser.mjs';
import { startWorker } from '../js/support/worker.mjs';
import { STATES, verdictShown } from './states.mjs';

const dir = resolve(process.argv[2] ?? new URL('../artifacts/screens/', import.meta.url).pathname);
mkdirSync(dir, { recursive: true });

const worker = await startWorker();
const browser = await launchBrowser();
const written = [];
try {
  for (const [level, name, what, drive] of STATES) {
    const { page, problems } = await openPage(browser.context, `${worker.origin}/ui/`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForSelector('#status.ready, #status.failed', { timeout: 30000 });
    await drive(page);
    await verdictShown(page);
    const shown = await page.getAttribute('#result-summary', 'data-level');
    if (shown !== level) throw new Error(`${name}: the page shows ${shown}, expected ${level}`);
    // The verdict and the token table (the claims below them are long and say no more).
    const file = `${dir}/verdict-${name}.png`;
    await page.locator('#result-summary').scrollIntoViewIfNeeded();
    const top = await page.locator('#result-summary').boundingBox();
    const bottom = await page.locator('#result-tokens').boundingBox();
    const scroll = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }));
    await page.screenshot({
      path: file,
      fullPage: true,
      clip: {
        x: Math.max(0, Math.min(top.x, bottom.x) - 8 + scroll.x),
        y: Math.max(0, top.y - 8 + scroll.y),
        width: Math.max(top.width, bottom.width) + 16,
        height: bottom.y + bottom.height - top.y + 16,
      },
    });
    written.push(file);
    if (await page.isEnabled('#apply-policy')) {
      await page.selectOption('#policy-sample', { index: 1 });
      await page.click('#apply-policy');
      await page.waitForSelector('#policy-output > div, #policy-error:not([hidden])');
      const policy = `${dir}/verdict-${name}-policy.png`;
      const box = await page.locator('#policy-output > div').boundingBox();
      const at = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }));
      await page.screenshot({
        path: policy,
        fullPage: true,
        clip: { x: box.x + at.x, y: box.y + at.y, width: box.width, height: Math.min(box.height, 420) },
      });
      written.push(policy);
    }
    if (problems.length) throw new Error(`${name}: ${problems.join('; ')}`);
    console.log(`${level}: ${what}`);
    await page.close();
  }
} finally {
  await browser.close();
  await worker.stop();
}
console.log(written.join('\n'));
