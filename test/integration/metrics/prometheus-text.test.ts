// The strict reader the /metrics tests rely on: it reads what the format allows and refuses, naming
// the line, what Prometheus would not ingest. A reader that accepted anything would prove nothing.
import { describe, expect, it } from 'vitest'
import { parsePrometheusText, sampleValue } from './prometheus-text.ts'

const VALID = `# HELP http_requests_total Requests, with a \\\\ and a \\n in its help
# TYPE http_requests_total counter
http_requests_total{method="post",path="/a \\"quoted\\" \\\\ and\\nnew line"} 1027 1395066363000
http_requests_total{method="get",} 3

# a comment
# TYPE latency_seconds histogram
latency_seconds_bucket{le="0.1"} 2
latency_seconds_bucket{le="1"} 3
latency_seconds_bucket{le="+Inf"} 4
latency_seconds_sum 7.5
latency_seconds_count 4
# TYPE temperature gauge
temperature -3.5e1
temperature_info NaN
`

describe('parsePrometheusText', () => {
  it('reads families, their help, labels with escapes, values and timestamps', () => {
    const families = parsePrometheusText(VALID.replace('temperature_info NaN\n', ''))
    const requests = families.get('http_requests_total')!
    expect(requests.help).toBe('Requests, with a \\ and a \n in its help')
    expect(requests.samples).toEqual([
      { name: 'http_requests_total', labels: { method: 'post', path: '/a "quoted" \\ and\nnew line' }, value: 1027 },
      { name: 'http_requests_total', labels: { method: 'get' }, value: 3 },
    ])
    expect(sampleValue(families, 'latency_seconds', 'latency_seconds_count')).toBe(4)
    expect(sampleValue(families, 'temperature', 'temperature')).toBe(-35)
  })

  it.each([
    ['a sample of no declared family', VALID, /temperature_info has no TYPE line/],
    ['no line break at the end', '# TYPE a gauge\na 1', /does not end with a line break/],
    ['a bad metric name', '# TYPE 1a gauge\n', /is not a metric name/],
    ['an unknown type', '# TYPE a meter\n', /is not a metric type/],
    ['a TYPE after its samples', '# TYPE a gauge\na 1\n# TYPE a gauge\n', /TYPE for a after its samples/],
    ['two HELP lines', '# HELP a x\n# HELP a y\n', /a second HELP/],
    ['an unquoted label value', '# TYPE a gauge\na{b=1} 1\n', /not quoted/],
    ['an unknown escape', '# TYPE a gauge\na{b="\\t"} 1\n', /unknown escape/],
    ['an unclosed label value', '# TYPE a gauge\na{b="x} 1\n', /not closed/],
    ['a label given twice', '# TYPE a gauge\na{b="1",b="2"} 1\n', /label b given twice/],
    ['a series given twice', '# TYPE a gauge\na{b="1"} 1\na{b="1"} 2\n', /given twice/],
    ['a value that is no number', '# TYPE a gauge\na 1,5\n', /is not a sample value/],
    ['no value', '# TYPE a gauge\na{b="1"}\n', /expected a value/],
    ['a negative counter', '# TYPE a_total counter\na_total -1\n', /counter a_total is -1/],
    ['a family split in two', '# TYPE a gauge\n# TYPE b gauge\na 1\nb 1\na{c="1"} 1\n', /a's samples are not together/],
    ['buckets that are not cumulative', '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n', /not cumulative/],
    ['no +Inf bucket', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n', /no le="\+Inf" bucket/],
    ['a count other than the +Inf bucket', '# TYPE h histogram\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 2\n', /is not the count/],
    ['a histogram without its sum', '# TYPE h histogram\nh_bucket{le="+Inf"} 1\nh_count 1\n', /without _count or _sum/],
  ])('refuses %s', (_, text, message) => {
    expect(() => parsePrometheusText(text)).toThrow(message)
  })
})
