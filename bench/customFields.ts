/* eslint-disable -- not shipped: eslint.dev.config.mjs lints this file, not n8n's node rules */
/**
 * `npx tsx bench/customFields.ts`: node time of the mapper's custom-field list (actions/common/mapperFields.ts,
 * customFieldsOf) on one page of 100 leads holding 2,000 and 20,000 distinct custom fields each (issue 40 point 11),
 * and the size of the list it gives (at most MAX_CUSTOM_FIELDS fields). Median of 5 runs; prints the table. The list is
 * meant to be linear in the keys read: ten times the keys, about ten times the time.
 */
import { customFieldsOf } from '../nodes/CrmInvoicing/actions/common/mapperFields';
import { medianTimeMs as time } from './lib/stats';

for (const keys of [2_000, 20_000]) {
	const records = Array.from({ length: 100 }, (_, record) => ({
		id: `lead_${record}`,
		customFields: Object.fromEntries(
			Array.from({ length: keys }, (_, n) => [`field_${n}`, n % 3 === record % 3 ? null : n]),
		),
	}));
	const ms = time(() => customFieldsOf(records));
	const bytes = Buffer.byteLength(JSON.stringify(customFieldsOf(records).custom));
	console.log(
		`${keys} keys × 100 records: ${ms.toFixed(0)} ms, list ${Math.round(bytes / 1024)} KB`,
	);
}
