// Strings of the budget's limits in Settings, English and Spanish.

export const budgetEn = {
  budgetSettingsIntro: "Limits on what model calls may cost. Past a limit, chat moves to the offline model and background work waits until you allow more. Leave a field empty for no limit.",
  budgetDaily: "All calls, a day",
  budgetMonthly: "All calls, a month",
  budgetBackground: "Background work (summaries, proactive decisions), a day",
  budgetProviderHead: "Per provider",
  budgetProviderDaily: (id: string) => `${id}, a day`,
  budgetProviderMonthly: (id: string) => `${id}, a month`,
  budgetCurrency: "Currency (three letters, like EUR)",
  budgetRate: (currency: string) => `${currency} to one US dollar`,
  budgetRateHint: "Prices are in US dollars; amounts are shown in your currency at this rate.",
  budgetUnpriced: "Call models with no known price while a limit is set (their cost cannot be counted)",
  budgetSave: "Save limits",
  budgetSaved: "Saved. The next call keeps to these limits.",
  budgetNotANumber: (field: string) => `${field}: write a number, or leave it empty for no limit.`,
  budgetSetLimits: "Set limits",
  budgetNoLimits: "No budget is set: nothing is held back.",
};

export const budgetEs: typeof budgetEn = {
  budgetSettingsIntro: "Límites a lo que pueden costar las llamadas al modelo. Pasado un límite, el chat pasa al modelo sin conexión y el trabajo en segundo plano espera hasta que permitas más. Deja un campo vacío para no poner límite.",
  budgetDaily: "Todas las llamadas, al día",
  budgetMonthly: "Todas las llamadas, al mes",
  budgetBackground: "Trabajo en segundo plano (resúmenes, decisiones proactivas), al día",
  budgetProviderHead: "Por proveedor",
  budgetProviderDaily: (id: string) => `${id}, al día`,
  budgetProviderMonthly: (id: string) => `${id}, al mes`,
  budgetCurrency: "Moneda (tres letras, como EUR)",
  budgetRate: (currency: string) => `${currency} por un dólar estadounidense`,
  budgetRateHint: "Los precios están en dólares; las cantidades se muestran en tu moneda a este cambio.",
  budgetUnpriced: "Llamar a modelos sin precio conocido mientras haya un límite (su coste no se puede contar)",
  budgetSave: "Guardar límites",
  budgetSaved: "Guardado. La próxima llamada ya respeta estos límites.",
  budgetNotANumber: (field: string) => `${field}: escribe un número, o déjalo vacío para no poner límite.`,
  budgetSetLimits: "Poner límites",
  budgetNoLimits: "No hay presupuesto: no se frena nada.",
};
