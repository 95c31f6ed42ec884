-- Months whose roll-up was not compared with their rows since it last changed, for
-- every user, the oldest users first: the server's maintenance compares them ahead of
-- questions (`tools::check_months`), each in the user's own transactions.
CREATE FUNCTION sou_unchecked_months(p_limit bigint)
RETURNS TABLE (user_id bigint, month text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
    SELECT s.user_id, s.month FROM ledger_month_state s
    WHERE s.checked IS NULL OR s.checked <> 1
    ORDER BY s.user_id, s.month
    LIMIT p_limit
$$;
REVOKE ALL ON FUNCTION sou_unchecked_months(bigint) FROM PUBLIC;
