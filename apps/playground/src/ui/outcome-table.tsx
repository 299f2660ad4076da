import { optionLabel, standingOf } from '@parley/consensus';
import type { Run } from '../consensus/receipt-check.js';

const score = (n: number): string => n.toFixed(2);

/**
 * The result as the receipt shows it: each option with every party's score when everyone finds it
 * acceptable, and "blocked by a red line" otherwise, never saying whose.
 */
export function OutcomeTable(props: { run: Run }) {
  const { result, spec } = props.run;
  const entries = result.transcript.entries;
  const owners = spec.parties.map((p) => p.owner);
  const chosen = entries.findIndex((e) => e.option === result.decision);
  return (
    <div class="table-wrap">
      <table class="outcome">
        <caption>
          Every option, scored by every party (0 to 1). Max-min: the highest lowest score wins; the
          total breaks ties.
        </caption>
        <thead>
          <tr>
            <th scope="col">Option</th>
            {owners.map((o) => (
              <th key={o} scope="col" class="num">
                {o}
              </th>
            ))}
            <th scope="col" class="num">
              Lowest
            </th>
            <th scope="col" class="num">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry, i) => {
            const standing = standingOf(entry.verdicts);
            const label = optionLabel(entry.option, i);
            const row = i === chosen ? 'chosen' : standing === null ? 'blocked' : '';
            return (
              <tr key={label} class={row}>
                <th scope="row">
                  {label}
                  {i === chosen && <span class="tag tag-ok">decision</span>}
                </th>
                {standing === null ? (
                  <td colSpan={owners.length + 2} class="blocked-cell">
                    blocked by a red line
                  </td>
                ) : (
                  <>
                    {owners.map((owner) => {
                      const verdict = entry.verdicts.find((v) => v.owner === owner);
                      return (
                        <td key={owner} class="num">
                          {verdict === undefined ? '–' : score(verdict.score)}
                        </td>
                      );
                    })}
                    <td class="num strong">{score(standing.floor)}</td>
                    <td class="num">{score(standing.total)}</td>
                  </>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
