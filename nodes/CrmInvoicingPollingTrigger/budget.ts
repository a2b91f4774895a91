import type { IDataObject } from 'n8n-workflow';

/**
 * How often the node polls, from n8n's "Poll Times" parameter (the `pollTimes` every polling node has): the average
 * number of polls per minute over a day. Used to tell, before a poll, whether it fits the API's request budget.
 */
export function pollsPerMinute(pollTimes: unknown): number {
	const items = ((pollTimes as IDataObject | undefined)?.item ?? []) as IDataObject[];
	let total = 0;
	for (const item of items) total += pollsPerMinuteOf(item);
	// No poll time (n8n refuses that on activation) or one it cannot read: assume the most frequent, once a minute.
	return total > 0 ? total : 1;
}

function pollsPerMinuteOf(item: IDataObject): number {
	const value = Math.max(1, Number(item.value) || 1);
	switch (item.mode) {
		case 'everyMinute':
			return 1;
		case 'everyHour':
			return 1 / 60;
		case 'everyDay':
			return 1 / 1440;
		case 'everyWeek':
			return 1 / 10_080;
		case 'everyMonth':
			return 1 / 43_200;
		case 'everyX':
			return item.unit === 'hours' ? 1 / (60 * value) : 1 / value;
		case 'custom':
			return cronPollsPerMinute(String(item.cronExpression ?? ''));
		default:
			return 1;
	}
}

/** How many values of `range` (0..range-1) a cron field matches; undefined when it cannot be read. */
function fieldCount(field: string, range: number): number | undefined {
	let count = 0;
	for (const part of field.split(',')) {
		const match = /^(\*|\d+(?:-\d+)?)(?:\/(\d+))?$/.exec(part.trim());
		if (!match) return undefined;
		const step = match[2] === undefined ? 1 : Math.max(1, Number(match[2]));
		let from = 0;
		let to = range - 1;
		if (match[1] !== '*') {
			const [a, b] = match[1].split('-').map(Number);
			from = a;
			to = b === undefined ? (match[2] === undefined ? a : range - 1) : b;
		}
		count += Math.max(0, Math.floor((to - from) / step) + 1);
	}
	return Math.min(count, range);
}

/**
 * Polls per minute of one cron expression (5 fields, or 6 with seconds first), averaged over a day: seconds ×
 * minutes × hours matched, divided by the minutes of a day. Days and months are taken as "every day" (an upper bound).
 */
export function cronPollsPerMinute(expression: string): number {
	const fields = expression.trim().split(/\s+/);
	if (fields.length === 5) fields.unshift('0');
	if (fields.length < 6) return 1;
	const seconds = fieldCount(fields[0], 60);
	const minutes = fieldCount(fields[1], 60);
	const hours = fieldCount(fields[2], 24);
	if (seconds === undefined || minutes === undefined || hours === undefined) return 1;
	return (seconds * minutes * hours) / 1440;
}

export interface Budget {
	/** Requests one poll may make: what the rate allows between two polls, and what fits the poll's time budget. */
	requestsPerPoll: number;
	requestsPerMinute: number;
	pollsPerMinute: number;
}

/**
 * The requests one poll may make without falling behind: the credential's requests per minute divided by the polls
 * per minute, and no more than the requests that fit n8n's time budget for one poll (when n8n gives one).
 */
export function pollBudget(requestsPerMinute: number, polls: number, pollBudgetMs?: number): Budget {
	let requestsPerPoll = Math.floor(requestsPerMinute / polls);
	if (pollBudgetMs !== undefined && Number.isFinite(pollBudgetMs) && pollBudgetMs > 0) {
		requestsPerPoll = Math.min(requestsPerPoll, Math.floor((requestsPerMinute * pollBudgetMs) / 60_000));
	}
	return { requestsPerPoll: Math.max(1, requestsPerPoll), requestsPerMinute, pollsPerMinute: polls };
}
