-- tpcc-like (benchgrid's builtin, docs/steps/tpcc-like.md): Stock-Level, TPC-C clause 2.8 (weight 4).
-- :scale is the number of warehouses. pgbench 15 runs this file as it is
-- (pgbench -M prepared -s W -f ...), benchgrid embeds it at build time.
\set w_id random(1, :scale)
\set d_id random(1, 10)
\set threshold random(10, 20)
SELECT d_next_o_id AS next_o_id FROM district WHERE d_w_id = :w_id AND d_id = :d_id \gset
\set lo :next_o_id - 20
SELECT count(DISTINCT s_i_id) AS low_stock
  FROM order_line JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id
 WHERE ol_w_id = :w_id AND ol_d_id = :d_id AND ol_o_id >= :lo AND ol_o_id < :next_o_id
   AND s_quantity < :threshold;
