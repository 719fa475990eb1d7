-- Where each message was said or shown (DT-6): desktop, cli, and phone channels next.
-- Older messages keep NULL: nobody recorded it then.
ALTER TABLE messages ADD COLUMN channel TEXT;

-- Model calls are recorded by purpose (chat, summarize, proactive, extract); calls
-- recorded before under older names join their purpose.
UPDATE usage SET purpose = 'summarize' WHERE purpose IN ('context_digest', 'tool_summary');
UPDATE usage SET purpose = 'proactive' WHERE purpose = 'proactive_decision';
