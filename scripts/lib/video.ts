/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * The demo video (`npm run demo`): Playwright records a page as WebM by piping frames into an ffmpeg it would
 * download itself (`playwright install ffmpeg`, from a CDN); here it uses Debian's, linked where Playwright looks for
 * its own. And the check that a recording plays: ffprobe decodes every frame and reads the length.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './runtime';

/**
 * Links `ffmpeg` where playwright-core looks for its own (`<PLAYWRIGHT_BROWSERS_PATH>/ffmpeg-<revision>/ffmpeg-linux`,
 * the revision from its browsers.json) and returns the environment that points it there. Set it before
 * playwright-core is loaded: it reads the folder once.
 */
export function playwrightVideoEnv(ffmpeg: string): { PLAYWRIGHT_BROWSERS_PATH: string } {
	const playwright = path.dirname(require.resolve('playwright-core/package.json'));
	const { browsers } = JSON.parse(readFileSync(path.join(playwright, 'browsers.json'), 'utf8')) as {
		browsers: Array<{ name: string; revision: string }>;
	};
	const revision = browsers.find((browser) => browser.name === 'ffmpeg')?.revision;
	if (!revision) throw new Error(`playwright-core's browsers.json names no ffmpeg (${playwright})`);
	const folder = path.join(ROOT, '.tmp', 'playwright');
	const link = path.join(folder, `ffmpeg-${revision}`, 'ffmpeg-linux');
	mkdirSync(path.dirname(link), { recursive: true });
	rmSync(link, { force: true });
	symlinkSync(ffmpeg, link);
	return { PLAYWRIGHT_BROWSERS_PATH: folder };
}

export interface VideoProbe {
	codec: string;
	width: number;
	height: number;
	/** Frames ffprobe decoded: all of them, or it fails. */
	frames: number;
	seconds: number;
}

/** Decodes the whole file with ffprobe; throws with ffprobe's words when it is missing or does not play. */
export function probeVideo(ffprobe: string, file: string): VideoProbe {
	if (!existsSync(file)) throw new Error(`no video at ${file}`);
	const probe = spawnSync(
		ffprobe,
		[
			'-v',
			'error',
			'-count_frames',
			'-select_streams',
			'v:0',
			'-show_entries',
			'stream=codec_name,width,height,nb_read_frames:format=duration',
			'-of',
			'json',
			file,
		],
		{ encoding: 'utf8', timeout: 5 * 60_000 },
	);
	if (probe.status !== 0 || probe.stderr.trim())
		throw new Error(`ffprobe could not read ${file}: ${probe.stderr.trim() || probe.status}`);
	const read = JSON.parse(probe.stdout) as {
		streams?: Array<{ codec_name: string; width: number; height: number; nb_read_frames: string }>;
		format?: { duration?: string };
	};
	const stream = read.streams?.[0];
	if (!stream) throw new Error(`${file} has no video stream`);
	return {
		codec: stream.codec_name,
		width: stream.width,
		height: stream.height,
		frames: Number(stream.nb_read_frames),
		seconds: Number(read.format?.duration),
	};
}
