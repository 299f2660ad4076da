/**
 * A deterministic decision spec of the consensus benchmarks: options with numeric, categorical
 * and boolean attributes, and parties with three red lines (`<=`, `not_in`, `==`) and three
 * utility terms (two numeric, one `prefer`) each.
 */
export function specAt(options: number, parties: number) {
  const regions = ['eu', 'us', 'apac', 'latam', 'mena'];
  return {
    title: `bench ${options} x ${parties}`,
    options: Array.from({ length: options }, (_, i) => ({
      id: `option-${i}`,
      cost: (i * 37) % 1000,
      risk: (i * 13) % 10,
      delivery: 1 + ((i * 7) % 30),
      region: regions[i % regions.length] ?? 'eu',
      certified: i % 7 !== 0,
      rating: ((i * 29) % 100) / 10,
    })),
    parties: Array.from({ length: parties }, (_, p) => ({
      owner: `party-${p}`,
      hard: [
        { attr: 'risk', op: '<=', value: 7 + (p % 3) },
        { attr: 'region', op: 'not_in', value: p % 4 === 0 ? ['mena'] : [] },
        { attr: 'certified', op: '==', value: true },
      ],
      utility: [
        { attr: 'cost', direction: 'lower', lo: 0, hi: 1000, weight: 1 + (p % 3) },
        { attr: 'delivery', direction: 'lower', lo: 1, hi: 30 },
        { attr: 'region', prefer: regions[p % regions.length] ?? 'eu', weight: 0.5 },
      ],
    })),
  };
}
