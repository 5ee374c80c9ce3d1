-- tpcc-like (benchgrid's builtin, docs/steps/tpcc-like.md): Payment, TPC-C clause 2.5 (weight 43).
-- :scale is the number of warehouses. pgbench 15 runs this file as it is
-- (pgbench -M prepared -s W -f ...), benchgrid embeds it at build time.
\set w_id random(1, :scale)
\set d_id random(1, 10)
-- 85 % of customers pay at their home warehouse, 15 % at another one
\set remote random(1, 100) > 85
\set c_w_id case when :remote then (:w_id + random(0, greatest(:scale - 2, 0))) % :scale + 1 else :w_id end
\set c_d_id case when :remote then random(1, 10) else :d_id end
-- 60 % by last name: NURand(255, 0, 999), else by id: NURand(1023, 1, 3000)
\set by_name random(1, 100) <= 60
\set c_last_n ((random(0, 255) | random(0, 999)) + 223) % 1000
\set c_id ((random(0, 1023) | random(1, 3000)) + 259) % 3000 + 1
-- the amount in cents: 1.00 to 5000.00
\set h_amount random(100, 500000)
BEGIN;
\if :by_name
SELECT c_id FROM customer
  WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_last = (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n / 100 + 1] || (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n / 10 % 10 + 1] || (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n % 10 + 1]
  ORDER BY c_first
  OFFSET (SELECT (count(*) - 1) / 2 FROM customer
           WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_last = (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n / 100 + 1] || (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n / 10 % 10 + 1] || (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n % 10 + 1])
  LIMIT 1 \gset
\endif
\startpipeline
UPDATE warehouse SET w_ytd = w_ytd + :h_amount * 0.01 WHERE w_id = :w_id;
UPDATE district SET d_ytd = d_ytd + :h_amount * 0.01 WHERE d_w_id = :w_id AND d_id = :d_id;
UPDATE customer SET c_balance = c_balance - :h_amount * 0.01,
                    c_ytd_payment = c_ytd_payment + :h_amount * 0.01,
                    c_payment_cnt = c_payment_cnt + 1,
                    c_data = CASE WHEN c_credit = 'BC'
                             THEN left(:c_id::text || ' ' || :c_d_id::text || ' ' || :c_w_id::text || ' '
                                       || :d_id::text || ' ' || :w_id::text || ' '
                                       || (:h_amount * 0.01)::text || ' | ' || c_data, 500)
                             ELSE c_data END
  WHERE c_w_id = :c_w_id AND c_d_id = :c_d_id AND c_id = :c_id;
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
  VALUES (:c_id, :c_d_id, :c_w_id, :d_id, :w_id, now(), :h_amount * 0.01,
          (SELECT w_name FROM warehouse WHERE w_id = :w_id) || '    '
          || (SELECT d_name FROM district WHERE d_w_id = :w_id AND d_id = :d_id));
COMMIT;
\endpipeline
