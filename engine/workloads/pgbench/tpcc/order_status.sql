-- tpcc-like (benchgrid's builtin, docs/steps/tpcc-like.md): Order-Status, TPC-C clause 2.6 (weight 4).
-- :scale is the number of warehouses. pgbench 15 runs this file as it is
-- (pgbench -M prepared -s W -f ...), benchgrid embeds it at build time.
\set w_id random(1, :scale)
\set d_id random(1, 10)
\set by_name random(1, 100) <= 60
\set c_last_n ((random(0, 255) | random(0, 999)) + 223) % 1000
\set c_id ((random(0, 1023) | random(1, 3000)) + 259) % 3000 + 1
BEGIN;
\if :by_name
SELECT c_id FROM customer
  WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_last = (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n / 100 + 1] || (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n / 10 % 10 + 1] || (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n % 10 + 1]
  ORDER BY c_first
  OFFSET (SELECT (count(*) - 1) / 2 FROM customer
           WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_last = (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n / 100 + 1] || (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n / 10 % 10 + 1] || (ARRAY['BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'])[:c_last_n % 10 + 1])
  LIMIT 1 \gset
\endif
\startpipeline
SELECT c_balance, c_first, c_middle, c_last FROM customer
  WHERE c_w_id = :w_id AND c_d_id = :d_id AND c_id = :c_id;
SELECT o_id, o_carrier_id, o_entry_d, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
  FROM orders JOIN order_line ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
  WHERE o_w_id = :w_id AND o_d_id = :d_id
    AND o_id = (SELECT max(o_id) FROM orders
                 WHERE o_w_id = :w_id AND o_d_id = :d_id AND o_c_id = :c_id);
COMMIT;
\endpipeline
