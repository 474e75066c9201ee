"use client";

import { useState, type FormEvent } from "react";

type Built<I> = { input: I; error?: undefined } | { input?: undefined; error: string };

interface Mutation<I> {
  reset: () => void;
  mutate: (input: I, options: { onSuccess: () => void }) => void;
}

/** A form's submit handler: a validation message stays inline (`formError`), a valid input goes to the mutation. */
export function useCheckedSubmit<I>(mutation: Mutation<I>, build: () => Built<I>, onSuccess: () => void) {
  const [formError, setFormError] = useState<string | null>(null);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    mutation.reset();
    const built = build();
    if (built.error !== undefined) {
      setFormError(built.error);
      return;
    }
    setFormError(null);
    mutation.mutate(built.input, { onSuccess });
  }

  return { formError, onSubmit };
}
