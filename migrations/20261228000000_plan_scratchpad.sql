-- The model's scratchpad (issue 75, item 8: context engineering 16): notes it keeps for
-- the request it works on, beside the plan, gone with the plan.
ALTER TABLE plans ADD COLUMN scratchpad TEXT NOT NULL DEFAULT '';
