-- Shisen-Sho rules were stored as flags (`gravity=1,chinese=0`); they are
-- now `shisen::Rules` as text: `standard`, `gravity`, `chinese` or
-- `gravity-chinese`, the words that also name a variant.
UPDATE games SET rules = CASE rules
    WHEN 'gravity=0,chinese=0' THEN 'standard'
    WHEN 'gravity=1,chinese=0' THEN 'gravity'
    WHEN 'gravity=0,chinese=1' THEN 'chinese'
    WHEN 'gravity=1,chinese=1' THEN 'gravity-chinese'
    ELSE rules
END
WHERE game = 'shisen';
