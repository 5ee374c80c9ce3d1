-- tpcc-like (benchgrid's builtin, docs/steps/tpcc-like.md): Delivery, TPC-C clause 2.7 (weight 4), run at once (not queued).
-- :scale is the number of warehouses. pgbench 15 runs this file as it is
-- (pgbench -M prepared -s W -f ...), benchgrid embeds it at build time.
\set w_id random(1, :scale)
\set carrier random(1, 10)
-- the oldest new order of each of the ten districts, in one statement
WITH no AS (
    DELETE FROM new_order
     WHERE no_w_id = :w_id
       AND (no_d_id, no_o_id) IN (SELECT d, (SELECT min(no_o_id) FROM new_order
                                              WHERE no_w_id = :w_id AND no_d_id = d)
                                    FROM generate_series(1, 10) AS d)
    RETURNING no_d_id, no_o_id),
  o AS (UPDATE orders SET o_carrier_id = :carrier FROM no
         WHERE o_w_id = :w_id AND o_d_id = no.no_d_id AND o_id = no.no_o_id
         RETURNING o_d_id, o_id, o_c_id),
  ol AS (UPDATE order_line SET ol_delivery_d = now() FROM no
          WHERE ol_w_id = :w_id AND ol_d_id = no.no_d_id AND ol_o_id = no.no_o_id
          RETURNING ol_d_id, ol_o_id, ol_amount),
  amt AS (SELECT ol_d_id, ol_o_id, sum(ol_amount) AS total FROM ol GROUP BY ol_d_id, ol_o_id)
UPDATE customer SET c_balance = c_balance + amt.total, c_delivery_cnt = c_delivery_cnt + 1
  FROM o JOIN amt ON amt.ol_d_id = o.o_d_id AND amt.ol_o_id = o.o_id
 WHERE c_w_id = :w_id AND c_d_id = o.o_d_id AND c_id = o.o_c_id;
