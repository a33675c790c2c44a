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
    const file = `${dir}/verdict-${name}.png`;
    await page.locator('#result').screenshot({ path: file });
    written.push(file);
    if (await page.isEnabled('#apply-policy')) {
      await page.selectOption('#policy-sample', { index: 1 });
      await page.click('#apply-policy');
      await page.waitForSelector('#policy-output > div, #policy-error:not([hidden])');
      const policy = `${dir}/verdict-${name}-policy.png`;
      await page.locator('#policy-output').screenshot({ path: policy });
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
