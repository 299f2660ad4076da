import type { ServiceObserver } from '../serve/run-example.js';

/** Several observers as one: each hears every request and every refusal. */
export function bothObservers(observers: readonly ServiceObserver[]): ServiceObserver {
  return {
    request(service, record) {
      for (const observer of observers) observer.request(service, record);
    },
    refusals(service) {
      const reporters = observers.flatMap((o) =>
        o.refusals === undefined ? [] : [o.refusals(service)],
      );
      return (reason) => {
        for (const report of reporters) report(reason);
      };
    },
  };
}
