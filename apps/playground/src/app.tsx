import { useEffect, useState } from 'preact/hooks';
import { ConsensusDemo } from './ui/consensus-demo.js';
import { ProtocolPlayground } from './ui/protocol-playground.js';

const TABS = [
  { id: 'protocol', label: 'Protocol playground' },
  { id: 'consensus', label: 'Consensus demo' },
] as const;
type Tab = (typeof TABS)[number]['id'];

const tabOf = (hash: string): Tab => (hash === '#consensus' ? 'consensus' : 'protocol');

/** The page: the two halves of Parley, one tab each (the URL's #hash names the tab). */
export function App() {
  const [tab, setTab] = useState<Tab>(tabOf(window.location.hash));
  useEffect(() => {
    const follow = (): void => setTab(tabOf(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const choose = (next: Tab): void => {
    window.location.hash = next;
    setTab(next);
  };
  return (
    <>
      <header class="top">
        <div class="brand">
          <span class="logo" aria-hidden="true">
            P
          </span>
          <h1>
            Parley <span class="muted">playground</span>
          </h1>
        </div>
        <div class="tabs" role="tablist" aria-label="Parley">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`panel-${t.id}`}
              tabIndex={tab === t.id ? 0 : -1}
              onClick={() => choose(t.id)}
              onKeyDown={(event) => {
                if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
                  const other = t.id === 'protocol' ? 'consensus' : 'protocol';
                  choose(other);
                  document.getElementById(`tab-${other}`)?.focus();
                }
              }}
            >
              {t.label}
            </button>
          ))}
        </div>
      </header>
      <main>
        {TABS.map((t) => (
          <div
            key={t.id}
            role="tabpanel"
            id={`panel-${t.id}`}
            aria-labelledby={`tab-${t.id}`}
            class="panel"
            hidden={tab !== t.id}
          >
            {t.id === 'protocol' ? <ProtocolPlayground /> : <ConsensusDemo />}
          </div>
        ))}
      </main>
    </>
  );
}
